// `shipcheck-fuzz TARGET [libFuzzer options] [CORPUS…]`: runs libFuzzer on one entry point of
// HostileInputTargets (elf, macho, bundle, conflicts, ifconfig, pbxproj, xcconfig, config, demangler).
// `shipcheck-fuzz --list` prints the targets. A copy or link named `fuzz_TARGET` runs TARGET
// with libFuzzer's options alone: ClusterFuzzLite runs one executable per target
// (.clusterfuzzlite/build.sh), the same driver as `make fuzz`.
//
// SwiftPM renames an executable's `main`, so libFuzzer's own `main` cannot be used; its driver is
// called from here instead, with the target name taken out of the arguments.
import HostileInputTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: FuzzCallback
) -> Int32

/// LeakSanitizer's suppressions, read by its runtime at start (so every runner of this driver
/// has them, ClusterFuzzLite's included). Only leaks outside shipcheck:
/// - `CFErrorCreate`: swift-corelibs-foundation's PropertyListSerialization leaks the CFError of
///   every failed parse (48 bytes; the pbxproj reader meets one per malformed project file).
/// - `swift_demangle`: the Swift runtime's demangler crashes on some malformed names
///   (bench/fuzz/FINDINGS.md); shipcheck_swift_demangle jumps out of the fault, and that one
///   demangle's scratch memory (a few hundred bytes) is never freed. shipcheck frees every name
///   it gets back (Demangler.swift).
/// - `libstdc++.so`: the same demangler memory as the fast unwinder records it: the stack of an
///   allocation made through libstdc++'s `operator new` (built without frame pointers) stops
///   there. Only the Swift runtime allocates through `operator new` here; shipcheck's own code
///   is Swift and C.
/// - `makeBackingConfiguration`: ZIPFoundation (0.9.20) opens an archive with the C path
///   `FileManager.fileSystemRepresentation(withPath:)` returns and never frees it (a path's
///   length per `Archive(url:)`; the android target opens one or two per input).
/// (A static string: its bytes are in the binary, NUL-terminated, whenever LeakSanitizer asks.)
@_cdecl("__lsan_default_suppressions")
func leakSuppressions() -> UnsafePointer<CChar> {
    let text: StaticString =
        "leak:CFErrorCreate\nleak:swift_demangle\nleak:libstdc++.so\nleak:makeBackingConfiguration\n"
    return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

let names = HostileInputTarget.allCases.map(\.rawValue)
if CommandLine.arguments.dropFirst().first == "--list" {
    print(names.joined(separator: "\n"))
    exit(0)
}
// libFuzzer's `-merge=1` runs this program again with libFuzzer's options only: the target then
// comes from the environment, which the first run sets for its children.
let environmentVariable = "SHIPCHECK_FUZZ_TARGET"
let named = CommandLine.arguments.count >= 2 ? HostileInputTarget(rawValue: CommandLine.arguments[1]) : nil
let program = CommandLine.arguments[0].split(separator: "/").last.map(String.init) ?? ""
let byProgramName = program.hasPrefix("fuzz_") ? HostileInputTarget(rawValue: String(program.dropFirst(5))) : nil
let inherited = getenv(environmentVariable).flatMap { HostileInputTarget(rawValue: String(cString: $0)) }
guard let chosen = named ?? byProgramName ?? inherited else {
    print("usage: shipcheck-fuzz TARGET [libFuzzer options] [CORPUS…]   (TARGET: \(names.joined(separator: ", ")))")
    exit(2)
}
setenv(environmentVariable, chosen.rawValue, 1)
// A C callback cannot capture; the chosen target lives in a global the callback reads.
let target = chosen

/// libFuzzer's entry point by its usual name, for tools that look for it (ClusterFuzzLite finds
/// fuzz targets by it); the driver below calls the same code.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target.run(Array(UnsafeRawBufferPointer(start: data, count: size)))
    return 0
}

// libFuzzer sees the program name followed by its own options (the target name taken out).
let arguments = CommandLine.unsafeArgv
var argc = CommandLine.argc
var argv = arguments
if named != nil {
    arguments[1] = arguments[0]
    argc -= 1
    argv += 1
}
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
