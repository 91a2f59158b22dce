// `shipcheck-fuzz TARGET [libFuzzer options] [CORPUS…]`: runs libFuzzer on one entry point of
// HostileInputTargets (elf, macho, bundle, conflicts, ifconfig, pbxproj, xcconfig, config).
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
guard CommandLine.arguments.count >= 2, let chosen = HostileInputTarget(rawValue: CommandLine.arguments[1]) else {
    print("usage: shipcheck-fuzz TARGET [libFuzzer options] [CORPUS…]   (TARGET: \(names))")
    exit(2)
}
// A C callback cannot capture; the chosen target lives in a global the callback reads.
let target = chosen

// libFuzzer sees the program name followed by its own options.
let arguments = CommandLine.unsafeArgv
arguments[1] = arguments[0]
var argc = CommandLine.argc - 1
var argv = arguments + 1
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    target.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
})
