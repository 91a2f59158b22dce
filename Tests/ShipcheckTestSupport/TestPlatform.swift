import Foundation
import ScanEngine
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the platform and the build under test offer, for tests that need more than every
/// build has: a Mac build has no ELF reader, APFS refuses file names that are not UTF-8, and
/// script(1) takes other options there.
package enum TestPlatform {
    /// The binary under test reads ELF (`--version` says `ELF support: yes`): the `ELF` trait,
    /// on Linux. The ELF samples (Samples/Binaries, built with the host's swiftc) need it too.
    package static let readsELF: Bool = CommandRunner.shipcheck(["--version"]).stdout.contains("ELF support: yes")

    /// The temporary folder's file system takes a file name that is not UTF-8 (ext4 does;
    /// APFS refuses it with EILSEQ).
    package static let allowsNonUTF8Names: Bool = {
        let directory = TemporaryDirectory("shipcheck-non-utf8-name")
        let name = Array((directory.path + "/caf").utf8) + [0xE9]
        let descriptor = SystemCalls.openFile(bytes: name, flags: O_CREAT | O_WRONLY, mode: 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }()

    /// script(1) running `command` on a pseudo-terminal, output to standard output:
    /// util-linux's `script -qec CMD /dev/null` on Linux, BSD's `script -q /dev/null sh -c CMD`
    /// on macOS.
    package static func onPseudoTerminal(_ command: String) -> (executable: String, arguments: [String]) {
        #if canImport(Darwin)
        ("/usr/bin/script", ["-q", "/dev/null", "/bin/sh", "-c", command])
        #else
        ("/usr/bin/script", ["-qec", command, "/dev/null"])
        #endif
    }
}

extension Trait where Self == ConditionTrait {
    /// For tests on ELF files (the samples built by Samples/Binaries/build.sh, the toolchain's
    /// own libraries): skipped where the binary reads Mach-O only (macOS, `--disable-default-traits`).
    package static var needsELF: Self {
        .enabled(if: TestPlatform.readsELF, "needs the ELF reader (the ELF trait, on Linux)")
    }

    /// For tests that write file names which are not UTF-8.
    package static var needsNonUTF8Names: Self {
        .enabled(if: TestPlatform.allowsNonUTF8Names, "the file system refuses names that are not UTF-8 (APFS)")
    }
}
