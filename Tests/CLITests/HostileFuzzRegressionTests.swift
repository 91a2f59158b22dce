import Foundation
import HostileInputTargets
import ScanEngine
import Testing

/// Every input kept under `Tests/Fixtures/fuzz-regressions/<target>/` (crashes `make fuzz` found,
/// and hand-made inputs for robustness bugs fixed since), fed through the same entry point the
/// fuzzer drives. A regression is a crash of the test process: each input's name is printed
/// first so the log says which one.
@Suite struct HostileFuzzRegressionTests {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return url.path + "/Fixtures/fuzz-regressions"
    }()

    static func inputs(of target: HostileInputTarget) -> [String] {
        let directory = folder + "/" + target.rawValue
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
    }

    @Test(arguments: HostileInputTarget.allCases)
    func replayKeptInputs(target: HostileInputTarget) throws {
        for path in Self.inputs(of: target) {
            print("fuzz-regression \(target.rawValue): \((path as NSString).lastPathComponent)")
            let bytes = try #require(FileManager.default.contents(atPath: path), "unreadable: \(path)")
            target.run(Array(bytes))
        }
    }

    /// The folders exist for every target, so `make fuzz` and this replay agree on the layout.
    @Test func everyTargetHasAFolder() {
        for target in HostileInputTarget.allCases {
            #expect(
                FileKind.of(Self.folder + "/" + target.rawValue) == .directory,
                "missing \(Self.folder)/\(target.rawValue)")
        }
    }
}
