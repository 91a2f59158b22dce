import Foundation
import ShipcheckTestSupport

/// The leak samples (Samples/Binaries), built once per test run by their build.sh when missing
/// or out of date (a few seconds: the #Preview plugin uses the toolchain's own swift-syntax).
enum SampleBinaries {
    static var packageRoot: String { Repository.root }

    static var output: String { Repository.sampleBinaries }

    static func path(_ variant: String, _ file: String = "App") -> String { "\(output)/\(variant)/\(file)" }
}
