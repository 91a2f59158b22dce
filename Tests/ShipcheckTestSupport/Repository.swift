import Foundation

/// This checkout, for tests that read the committed samples.
package enum Repository {
    /// The package root (the folder holding Package.swift).
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    package static func path(_ relative: String) -> String { root + "/" + relative }

    /// Samples/Binaries built by its build.sh (once per test process; build.sh itself skips up-to-date
    /// variants and serialises concurrent builds): the folder holding one directory per build variant.
    /// They are ELF files built with the host's swiftc (build.sh is Linux-only), so they are built
    /// only where the binary reads ELF; tests on them carry `.needsELF`. A failed build is
    /// reported, and each test on a missing sample then fails on its own instead of the whole run
    /// trapping (this is reached from `@Test(arguments:)` lists too).
    package static let sampleBinaries: String = {
        let output = path("Samples/Binaries/.build-samples")
        guard TestPlatform.readsELF else { return output }
        let result = CommandRunner.run("/bin/bash", [path("Samples/Binaries/build.sh")])
        if result.status != 0 {
            FileHandle.standardError.write(
                Data("Samples/Binaries/build.sh failed:\n\(result.stdout)\n\(result.stderr)\n".utf8))
        }
        return output
    }()

    /// The demo's `.ipa` (Samples/Bundles/make_ipa.py, assembled from the committed fixtures
    /// once per test process, as `make demo` does): its path relative to the package root.
    package static let demoIPA: String = {
        let relative = "Samples/Bundles/.build-bundles/Demo.ipa"
        let result = CommandRunner.run("/usr/bin/env", ["python3", path("Samples/Bundles/make_ipa.py"), path(relative)])
        precondition(result.status == 0, "Samples/Bundles/make_ipa.py failed:\n\(result.stdout)\n\(result.stderr)")
        return relative
    }()

    /// The release of the demo app before `demoIPA` (`make_ipa.py --previous-release`, as
    /// `make demo` assembles it for `shipcheck diff`): its path relative to the package root.
    package static let previousDemoIPA: String = {
        let relative = "Samples/Bundles/.build-bundles/Demo-previous.ipa"
        let result = CommandRunner.run(
            "/usr/bin/env", ["python3", path("Samples/Bundles/make_ipa.py"), path(relative), "--previous-release"])
        precondition(result.status == 0, "Samples/Bundles/make_ipa.py failed:\n\(result.stdout)\n\(result.stderr)")
        return relative
    }()

    /// The committed Mach-O fixtures (Tests/Fixtures/macho, rebuilt by its build.sh).
    package static func machOFixture(_ name: String) -> String { path("Tests/Fixtures/macho/" + name) }
}

/// The Swift toolchain running the tests: its tools (llvm-nm, swift-demangle) and libraries.
package enum Toolchain {
    /// The toolchain's root (the folder holding bin/swiftc): found through `swiftc` on PATH on
    /// Linux; on macOS through `xcrun --find`, since `/usr/bin/swiftc` there is a shim.
    package static let root: URL = {
        #if canImport(Darwin)
        let swiftc = CommandRunner.run("/usr/bin/xcrun", ["--find", "swiftc"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #else
        let swiftc = CommandRunner.run("which", ["swiftc"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #endif
        return URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    /// The toolchain's llvm-nm (LLVM 17+: reads every Mach-O chained-fixup format the fixtures use).
    package static var llvmNM: String { tool("llvm-nm", xcodeName: "nm") }

    /// A tool of the toolchain by its LLVM name. Xcode ships some of them under Apple's names
    /// only (its `nm` and `objdump` are llvm-nm and llvm-objdump).
    package static func tool(_ name: String, xcodeName: String? = nil) -> String {
        let path = root.appendingPathComponent("bin/" + name).path
        #if canImport(Darwin)
        if !FileManager.default.isExecutableFile(atPath: path), let xcodeName {
            return root.appendingPathComponent("bin/" + xcodeName).path
        }
        #endif
        return path
    }
}
