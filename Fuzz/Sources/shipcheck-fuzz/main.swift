// `shipcheck-fuzz TARGET [libFuzzer options] [CORPUS…]`: runs libFuzzer on one entry point of
// HostileInputTargets (elf, macho, bundle, conflicts, ifconfig, pbxproj, xcconfig, config, demangler).
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

let names = HostileInputTarget.allCases.map(\.rawValue).joined(separator: ", ")
// libFuzzer's `-merge=1` runs this program again with libFuzzer's options only: the target then
// comes from the environment, which the first run sets for its children.
let environmentVariable = "SHIPCHECK_FUZZ_TARGET"
let named = CommandLine.arguments.count >= 2 ? HostileInputTarget(rawValue: CommandLine.arguments[1]) : nil
let inherited = getenv(environmentVariable).flatMap { HostileInputTarget(rawValue: String(cString: $0)) }
guard let chosen = named ?? inherited else {
    print("usage: shipcheck-fuzz TARGET [libFuzzer options] [CORPUS…]   (TARGET: \(names))")
    exit(2)
}
setenv(environmentVariable, chosen.rawValue, 1)
// A C callback cannot capture; the chosen target lives in a global the callback reads.
let target = chosen

// libFuzzer sees the program name followed by its own options (the target name taken out).
let arguments = CommandLine.unsafeArgv
var argc = CommandLine.argc
var argv = arguments
if named != nil {
    arguments[1] = arguments[0]
    argc -= 1
    argv += 1
}
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    target.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
})
