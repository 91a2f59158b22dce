import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Synchronization
import Testing

/// The read pass reads every file into its thread's one reusable buffer. A file a check asks
/// for again must reach the later round with its own bytes, not those of whatever the thread
/// read next: the pipeline copies what it keeps (see docs/performance.md, "Per-thread read
/// buffer").
@Suite struct KeptBytesTests {
    /// Asks for every file again (in the first round, either round, or perhaps the second) and
    /// records the bytes it gets in the round.
    final class KeepingCheck: FileCheck {
        let name = "keeping"
        let kept = Mutex<[String: [UInt8]]>([:])

        func wants(_ file: ScannedFile) -> Bool { true }

        func inspect(_ contents: FileContents) -> FollowUp {
            [.firstRound, .eitherRound, .secondRoundIfWanted][contents.index % 3]
        }

        func wantsSecondRound(_ contents: FileContents) -> Bool { true }

        func process(_ contents: FileContents, round: FileRound) {
            let bytes = contents.withBytes { $0.array() }
            kept.withLock { $0[contents.file.relativePath] = bytes }
        }

        func finish() -> CheckResult { CheckResult() }
    }

    @Test func everyFileAskedForAgainArrivesWithItsOwnBytes() {
        let directory = TemporaryDirectory()
        var written: [String: [UInt8]] = [:]
        // Sizes from a few bytes to past a page, so a later, shorter file read into the same
        // buffer would leave part of an earlier one behind.
        for index in 0..<150 {
            let name = "Sources/File\(index).swift"
            let text = String(repeating: "// line of file \(index)\n", count: 1 + (index * 37) % 400)
            _ = directory.write(name, text)
            written[name] = Array(text.utf8)
        }
        let check = KeepingCheck()
        let result = scan(directory.path, with: check)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let kept = check.kept.withLock { $0 }
        #expect(kept.count == written.count)
        for (name, bytes) in written {
            #expect(kept[name] == bytes, "\(name) reached its round with other bytes")
        }
    }
}
