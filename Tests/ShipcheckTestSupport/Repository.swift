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
}
