import Foundation

/// This checkout, for tests that read the committed samples.
public enum Repository {
    /// The package root (the folder holding Package.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// Samples/Binaries built by its build.sh (once per test process; build.sh itself skips up-to-date
    /// variants and serialises concurrent builds): the folder holding one directory per build variant.
    public static let sampleBinaries: String = {
        let result = CommandRunner.run("/bin/bash", [path("Samples/Binaries/build.sh")])
        precondition(result.status == 0, "Samples/Binaries/build.sh failed:\n\(result.stdout)\n\(result.stderr)")
        return path("Samples/Binaries/.build-samples")
    }()

    /// The demo's `.ipa` (Samples/Bundles/make_ipa.py, assembled from the committed fixtures
    /// once per test process, as `make demo` does): its path relative to the package root.
    public static let demoIPA: String = {
        let relative = "Samples/Bundles/.build-bundles/Demo.ipa"
        let result = CommandRunner.run("/usr/bin/env", ["python3", path("Samples/Bundles/make_ipa.py"), path(relative)])
        precondition(result.status == 0, "Samples/Bundles/make_ipa.py failed:\n\(result.stdout)\n\(result.stderr)")
        return relative
    }()

    /// The committed Mach-O fixtures (Tests/Fixtures/macho, rebuilt by its build.sh).
    public static func machOFixture(_ name: String) -> String { path("Tests/Fixtures/macho/" + name) }
}

/// The Swift toolchain running the tests: its tools (llvm-nm, swift-demangle) and libraries.
public enum Toolchain {
    /// The toolchain's root (the folder holding bin/swiftc), found through `swiftc` on PATH.
    public static let root: URL = {
        let swiftc = CommandRunner.run("which", ["swiftc"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The toolchain's llvm-nm (LLVM 17+: reads every Mach-O chained-fixup format the fixtures use).
    public static var llvmNM: String { root.appendingPathComponent("bin/llvm-nm").path }
}
