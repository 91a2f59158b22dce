import Dispatch
import ScanEngine
import ShipcheckTestSupport
import Testing

@testable import ScanEngine

@Suite struct GitListingTests {
    func names(_ listing: GitListing) throws -> [String] {
        var names: [ListedName] = []
        try #require(listing.take(inBatchesOf: 1) { names += $0 }).listed.get()
        return names.map { name in
            guard case .text(let text) = name else { return "?" }
            return text
        }.sorted()
    }

    // One test: the guessed listing is one per process, and tests run side by side.
    @Test func aGuessedListingGoesToTheScanOfItsDirectoryAndModeOnly() throws {
        let repository = GitFixture()
        repository.write("Tracked.swift", "x")
        repository.commitAll("initial")
        repository.write("Untracked.swift", "x")

        let guessed = GitListing.startGuessed(directory: repository.path + "/", untracked: false)
        let taken = GitListing.start(directory: repository.path, untracked: false)
        #expect(taken === guessed)
        #expect(try names(taken) == ["Tracked.swift"])
        // Its names were handed over: asked again, git lists again.
        repository.write("Later.swift", "x")
        repository.git("add", "Later.swift")
        #expect(try names(taken) == ["Later.swift", "Tracked.swift"])
        // Taken once: the next scan lists for itself.
        #expect(GitListing.start(directory: repository.path, untracked: false) !== guessed)

        // Another mode: untracked files are listed, not the guess's tracked ones alone.
        let wrongMode = GitListing.startGuessed(directory: repository.path, untracked: false)
        let untracked = GitListing.start(directory: repository.path, untracked: true)
        #expect(untracked !== wrongMode)
        #expect(try names(untracked) == ["Later.swift", "Tracked.swift", "Untracked.swift"])

        // Another directory: the guess is dropped.
        let other = GitFixture()
        other.write("Other.swift", "x")
        other.commitAll("other")
        GitListing.startGuessed(directory: repository.path, untracked: false)
        #expect(try names(GitListing.start(directory: other.path, untracked: false)) == ["Other.swift"])
    }

    @Test func aListingTakenApartInChunksGivesTheNamesOfTheWhole() {
        func text(_ names: [ListedName]) -> [String] {
            names.map { name in
                switch name {
                case .text(let text): text
                case .invalid(let bytes): "invalid \(bytes)"
                }
            }
        }
        // Names of every length around the split points, one with a newline, one not UTF-8,
        // an empty one (two NULs in a row), and bytes after the last NUL (no name).
        var listing: [UInt8] = []
        var expected: [String] = []
        for length in 1...9 {
            let name = String(repeating: Character(UnicodeScalar(UInt8(96 + length))), count: length) + ".swift"
            listing += Array(name.utf8) + [0]
            expected.append(name)
        }
        listing += Array("new\nline.swift".utf8) + [0] + [0]
        expected.append("new\nline.swift")
        listing += Array("caf".utf8) + [0xE9] + Array(".swift".utf8) + [0]
        expected.append("invalid \(Array("caf".utf8) + [0xE9] + Array(".swift".utf8))")
        listing += Array("tail".utf8)
        for size in 1...listing.count {
            var parser = ListedName.Parser()
            var start = 0
            while start < listing.count {
                let end = min(listing.count, start + size)
                listing[start..<end].withUnsafeBytes { parser.take($0) }
                start = end
            }
            #expect(text(parser.names) == expected, "chunks of \(size) bytes")
        }
    }
}

@Suite struct ListingFeedTests {
    /// What the scan's thread relies on while git lists: every name once, in order, in batches
    /// of at least the size asked for (the last one smaller), and nothing once git is done.
    @Test func theConsumerGetsEveryNameInOrderInBatchesOfAtLeastItsSize() {
        let feed = ListingFeed()
        let count = 10_000
        DispatchQueue.global().async {
            var next = 0
            while next < count {
                let size = min(count - next, 1 + next % 97)
                feed.publish(ArraySlice((next..<next + size).map { ListedName.text("File\($0).swift") }))
                next += size
            }
            feed.finish()
        }
        var taken: [String] = []
        var batches: [Int] = []
        while case let names = feed.take(atLeast: 1000), !names.isEmpty {
            batches.append(names.count)
            taken += names.map { name in
                guard case .text(let text) = name else { return "?" }
                return text
            }
        }
        #expect(taken == (0..<count).map { "File\($0).swift" })
        #expect(batches.dropLast().allSatisfy { $0 >= 1000 })
        #expect(feed.take(atLeast: 1).isEmpty)
    }
}
