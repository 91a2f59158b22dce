import ScanEngine
import ShipcheckTestSupport
import Synchronization
import Testing

@testable import ShipcheckCore

/// A scan whose checks need no complete listing before they read (`query run`) reads the
/// index's files while a second git still walks the work tree for the untracked ones; those come
/// after, and the checks see every file once, completed in listing order.
@Suite struct DeferredListingTests {
    /// Records what the read pass hands it.
    final class Recorder: FileCheck, Sendable {
        let name = "recorder"
        private let seen = Mutex<[String: Int]>([:])
        private let completed = Mutex<[Int]>([])

        func wants(_ file: ScannedFile) -> Bool { true }

        func inspect(_ contents: FileContents) {
            let text = contents.withBytes { $0.string() }
            seen.withLock { $0[contents.file.relativePath + "=" + text, default: 0] += 1 }
        }

        func fileCompleted(_ index: Int) { completed.withLock { $0.append(index) } }

        func finish() -> CheckResult { CheckResult() }

        var files: [String] { seen.withLock { $0.keys.sorted() } }
        var readTwice: Bool { seen.withLock { $0.values.contains { $0 > 1 } } }
        var completions: [Int] { completed.withLock { $0 } }
    }

    static func repository() -> GitFixture {
        let repository = GitFixture()
        repository.writeTrackedUntrackedAndIgnored(
            tracked: ["B.swift": "b", "Sub/A.swift": "a"], untracked: ["New.swift": "new", "Sub/Z.swift": "z"],
            ignored: ["Ignored.swift": "ignored"])
        return repository
    }

    @Test func untrackedFilesComeAfterTheIndexFilesAndEveryFileOnce() {
        let repository = Self.repository()
        let source = DiskFileSource(
            startedListing: GitListing.start(directory: repository.path, untracked: true), defersUntracked: true)
        let recorder = Recorder()
        let outcome = ScanPipeline(root: repository.path, configuration: Configuration(), source: source).run([recorder]
        )
        #expect(outcome.inputErrors.isEmpty)
        #expect(
            recorder.files == [
                ".gitignore=/Ignored.swift\n", "B.swift=b", "New.swift=new", "Sub/A.swift=a", "Sub/Z.swift=z"
            ])
        #expect(!recorder.readTwice)
        #expect(recorder.completions == Array(0..<5), "each file completed once, in listing order across both passes")
    }

    @Test func takingTheListingCanLeaveTheUntrackedNamesForLater() throws {
        let repository = Self.repository()
        var names: [String] = []
        let listing = GitListing.start(directory: repository.path, untracked: true)
        let taken = try #require(
            listing.take(inBatchesOf: 1, deferringUntracked: true) { batch in
                names += batch.map { if case .text(let text) = $0 { text } else { "?" } }
            })
        #expect(names == [".gitignore", "B.swift", "Sub/A.swift"], "the index's files, in its order")
        let later = try #require(taken.untracked).value.get().map { if case .text(let text) = $0 { text } else { "?" } }
        #expect(later.sorted() == ["New.swift", "Sub/Z.swift"])
    }

    @Test func aScanThatDoesNotDeferWaitsForEveryName() throws {
        let repository = Self.repository()
        let enumeration = FileEnumerator(
            root: repository.path, scope: ScanScope(),
            startedListing: GitListing.start(directory: repository.path, untracked: true)
        ).enumerate()
        #expect(enumeration.later == nil)
        #expect(
            enumeration.files.map(\.relativePath) == [
                ".gitignore", "B.swift", "Sub/A.swift", "New.swift", "Sub/Z.swift"
            ])
    }
}
