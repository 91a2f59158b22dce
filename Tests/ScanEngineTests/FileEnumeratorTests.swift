import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

@testable import ScanEngine

@Suite struct FileEnumeratorTests {
    func paths(_ enumeration: FileEnumeration) -> [String] { enumeration.files.map(\.relativePath).sorted() }

    @Test func insideGitUsesTrackedAndUntrackedButNotIgnored() {
        let repository = GitFixture()
        repository.writeTrackedUntrackedAndIgnored(
            tracked: ["App/View.swift": "tracked"], untracked: ["App/New.swift": "untracked"],
            ignored: ["build/Out.swift": "ignored", "debug.log": "ignored"])
        let enumeration = FileEnumerator(root: repository.path, scope: ScanScope()).enumerate()
        #expect(enumeration.usedGit)
        #expect(paths(enumeration) == [".gitignore", "App/New.swift", "App/View.swift"])
        #expect(enumeration.errors.isEmpty)
        // The index's files first (listed while a second git walks the work tree), then the
        // untracked ones; and the same through a listing started ahead, as it streams.
        #expect(enumeration.files.map(\.relativePath) == [".gitignore", "App/View.swift", "App/New.swift"])
        let started = FileEnumerator(
            root: repository.path, scope: ScanScope(),
            startedListing: GitListing.start(directory: repository.path, untracked: true)
        ).enumerate()
        #expect(started.files.map(\.relativePath) == [".gitignore", "App/View.swift", "App/New.swift"])
        // Tracked files alone: the index, as `conflicts` and `query run --tracked` list.
        let tracked = FileEnumerator(root: repository.path, scope: ScanScope(), listsUntracked: false)
            .enumerate()
        #expect(paths(tracked) == [".gitignore", "App/View.swift"])
    }

    @Test func subdirectoryOfARepositoryListsRelativeToItself() {
        let repository = GitFixture()
        repository.write("App/View.swift", "x")
        repository.write("Other/Thing.swift", "x")
        repository.commitAll("initial")
        let enumeration = FileEnumerator(root: repository.path + "/App", scope: ScanScope()).enumerate()
        #expect(paths(enumeration) == ["View.swift"])
    }

    @Test func plainWalkOutsideGitSkipsDotGitAndAppliesGlobs() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "x")
        directory.write("Pods/B.swift", "x")
        directory.write("Sub/C.swift", "x")
        let scope = ScanScope(exclude: GlobList(["Pods/**"]))
        let enumeration = FileEnumerator(root: directory.path, scope: scope, useGit: false).enumerate()
        #expect(!enumeration.usedGit)
        #expect(paths(enumeration) == ["A.swift", "Sub/C.swift"])
    }

    @Test func neverFollowsASymlinkOutOfTheRoot() throws {
        let outside = TemporaryDirectory()
        outside.write("secret/Leak.swift", "outside")
        for useGit in [false, true] {
            let root = useGit ? GitFixture().directory : TemporaryDirectory()
            root.write("Inside.swift", "x")
            try FileManager.default.createSymbolicLink(
                atPath: root.path + "/link", withDestinationPath: outside.path + "/secret")
            try FileManager.default.createSymbolicLink(
                atPath: root.path + "/file-link.swift", withDestinationPath: outside.path + "/secret/Leak.swift")
            let enumeration = FileEnumerator(root: root.path, scope: ScanScope(), useGit: useGit)
                .enumerate()
            #expect(paths(enumeration) == ["Inside.swift"], "useGit: \(useGit)")
            #expect(enumeration.errors.isEmpty)
        }
    }

    @Test func symlinkLoopIsReportedNotFollowed() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "x")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/loop", withDestinationPath: directory.path + "/loop")
        let enumeration = FileEnumerator(root: directory.path, scope: ScanScope(), useGit: false)
            .enumerate()
        #expect(paths(enumeration) == ["A.swift"])
        #expect(enumeration.errors.map(\.path) == ["loop"])
        #expect(enumeration.errors.first?.message.contains("symlink loop") == true)
    }

    @Test func fifoIsReportedAndNeverOpened() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "x")
        #expect(mkfifo(directory.path + "/pipe.swift", 0o644) == 0)
        let enumeration = FileEnumerator(root: directory.path, scope: ScanScope(), useGit: false)
            .enumerate()
        #expect(paths(enumeration) == ["A.swift"])
        #expect(enumeration.errors.first?.message.contains("FIFO") == true)
        // Reading it directly must fail at once, not block.
        #expect(throws: InputError.self) { try SafeFileReader.read(directory.path + "/pipe.swift") }
    }

    @Test func fileNameWithNewlineIsListedAndEscapedInMessages() throws {
        let repository = GitFixture()
        repository.write("odd\nname.swift", "x")
        repository.commitAll("odd")
        let enumeration = FileEnumerator(root: repository.path, scope: ScanScope()).enumerate()
        #expect(paths(enumeration) == ["odd\nname.swift"])
        #expect(FileEnumerator.escaped("odd\nname.swift") == "odd\\nname.swift")
        let walked = FileEnumerator(root: repository.path, scope: ScanScope(), useGit: false).enumerate()
        #expect(paths(walked) == ["odd\nname.swift"])
    }

    @Test(.needsNonUTF8Names) func invalidUTF8NameIsAnInputError() throws {
        let directory = TemporaryDirectory()
        directory.write("good.swift", "x")
        var raw = Array(directory.path.utf8) + Array("/bad".utf8) + [0xFF] + Array(".swift".utf8)
        raw.append(0)
        let descriptor = raw.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let enumeration = FileEnumerator(root: directory.path, scope: ScanScope(), useGit: false)
            .enumerate()
        #expect(paths(enumeration) == ["good.swift"])
        #expect(enumeration.errors.count == 1)
        #expect(enumeration.errors.first?.message.contains("not valid UTF-8") == true)
    }

    @Test(.needsNonUTF8Names) func trackedNameThatIsNotUTF8IsAnInputErrorAndTheRestIsListed() throws {
        let repository = GitFixture()
        repository.write("good.swift", "x")
        let raw = Array(repository.path.utf8) + Array("/bad".utf8) + [0xFF] + Array(".swift".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(descriptor >= 0)
        close(descriptor)
        repository.write("later.swift", "x")
        repository.commitAll("names")
        let enumeration = FileEnumerator(root: repository.path, scope: ScanScope(), listsUntracked: false)
            .enumerate()
        #expect(enumeration.usedGit)
        #expect(paths(enumeration) == ["good.swift", "later.swift"])
        #expect(
            enumeration.errors.map(\.description) == [
                "bad\u{FFFD}.swift: error: file name is not valid UTF-8; not scanned"
            ])
    }

    @Test func missingRootIsAnError() {
        let enumeration = FileEnumerator(root: "/nonexistent/shipcheck", scope: ScanScope()).enumerate()
        #expect(enumeration.files.isEmpty)
        #expect(enumeration.errors.count == 1)
    }

    @Test func singleFileRootIsItself() {
        let directory = TemporaryDirectory()
        let path = directory.write("One.swift", "x")
        #expect(paths(FileEnumerator(root: path, scope: ScanScope()).enumerate()) == ["One.swift"])
    }
}

@Suite struct SafeFileReaderTests {
    @Test func capIsEnforcedAndNamed() {
        let directory = TemporaryDirectory()
        let path = directory.write("big.txt", String(repeating: "x", count: 100))
        #expect(throws: InputError.self) { try SafeFileReader.read(path, sizeLimit: 10) }
        #expect((try? SafeFileReader.read(path, sizeLimit: 100))?.count == 100)
    }

    /// Skipped, and reported so, as root (which reads every file: CI runs as root).
    @Test(.enabled(if: getuid() != 0, "root reads a file whatever its mode"))
    func unreadableFileIsAnInputError() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("secret.txt", "x")
        chmod(path, 0)
        #expect(throws: InputError.self) { try SafeFileReader.read(path) }
    }

    @Test func directoryIsNotARegularFile() {
        let directory = TemporaryDirectory()
        #expect(throws: InputError.self) { try SafeFileReader.read(directory.path) }
    }

    /// Files are opened through the directory a thread read last, kept open: after a scan, a
    /// directory put in another's place under the same path is the one read.
    @Test func aDirectoryReplacedAfterAScanIsReadAnew() throws {
        let directory = TemporaryDirectory()
        let first = directory.write("folder/a.txt", "before")
        directory.write("folder/b.txt", "b")
        func contents(_ path: String) throws -> String {
            try SafeFileReader.withContents(path) { bytes, _ in String(decoding: bytes, as: UTF8.self) }
        }
        #expect(try contents(first) == "before")
        #expect(try contents(directory.path + "/folder/b.txt") == "b")
        #expect(rename(directory.path + "/folder", directory.path + "/moved") == 0)
        directory.write("folder/a.txt", "after")
        SafeFileReader.forgetOpenDirectories()
        #expect(try contents(first) == "after")
        #expect(throws: InputError.self) { try contents(directory.path + "/folder/b.txt") }
    }
}

@Suite struct AtomicFileTests {
    @Test func replacesContentAndKeepsPermissions() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("store.yml", "old")
        chmod(path, 0o640)
        try AtomicFile.write("new", to: path)
        #expect(directory.read("store.yml") == "new")
        var status = stat()
        stat(path, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    /// `--output /dev/null` as root must not replace the device with a regular file (it did:
    /// every later `> /dev/null` on the machine then filled a file). Through a link in a
    /// temporary folder, so a regression replaces the link, never the real device.
    @Test func aDeviceIsWrittenIntoNotReplaced() throws {
        let directory = TemporaryDirectory()
        let link = directory.path + "/null"
        #expect(symlink("/dev/null", link) == 0)
        try AtomicFile.write("discarded", to: link)
        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link was replaced")
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aSymlinkedFileIsReplacedAndTheLinkKept() throws {
        let directory = TemporaryDirectory()
        directory.write("real/store.yml", "old")
        #expect(symlink(directory.path + "/real/store.yml", directory.path + "/store.yml") == 0)
        try AtomicFile.write("new", to: directory.path + "/store.yml")
        #expect(directory.read("real/store.yml") == "new")
        var status = stat()
        #expect(lstat(directory.path + "/store.yml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    }

    @Test func aDirectoryIsAnInputError() {
        let directory = TemporaryDirectory()
        #expect(throws: InputError(path: directory.path, message: "is a directory")) {
            try AtomicFile.write("x", to: directory.path)
        }
    }

    @Test func missingDirectoryIsAnInputError() {
        #expect(throws: InputError.self) { try AtomicFile.write("x", to: "/nonexistent/dir/file") }
    }
}
