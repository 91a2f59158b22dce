import Foundation
import ShipcheckTestSupport

/// The leak samples (Samples/Binaries), built once per test run by their build.sh when missing
/// or out of date (a few seconds: the #Preview plugin uses the toolchain's own swift-syntax).
enum SampleBinaries {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let output: String = {
        let script = packageRoot + "/Samples/Binaries/build.sh"
        let result = CommandRunner.run("/bin/bash", [script])
        precondition(result.status == 0, "Samples/Binaries/build.sh failed:\n\(result.stdout)\n\(result.stderr)")
        return packageRoot + "/Samples/Binaries/.build-samples"
    }()

    static func path(_ variant: String, _ file: String = "App") -> String { "\(output)/\(variant)/\(file)" }
}
