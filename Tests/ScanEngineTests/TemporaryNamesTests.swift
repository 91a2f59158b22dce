import Foundation
import ScanEngine
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names every atomic write, spool and index scan makes its scratch files under.
@Suite struct TemporaryNamesTests {
    @Test func directoriesAndFilesGetNamesOfTheirOwn() throws {
        let base = try #require(TemporaryNames.makeDirectory(NSTemporaryDirectory() + "shipcheck-names-XXXXXX"))
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(!base.hasSuffix("XXXXXX"))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory) && isDirectory.boolValue)

        let first = try #require(TemporaryNames.makeFile(base + "/file-XXXXXX"))
        let second = try #require(TemporaryNames.makeFile(base + "/file-XXXXXX"))
        defer {
            close(first.descriptor)
            close(second.descriptor)
        }
        #expect(first.path != second.path)
        #expect(first.path.hasPrefix(base + "/file-"))
        // Open for writing: what is written is in the file named.
        #expect(write(first.descriptor, "shipcheck", 9) == 9)
        #expect(FileManager.default.contents(atPath: first.path) == Data("shipcheck".utf8))
        let permissions = try FileManager.default.attributesOfItem(atPath: first.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func aTemplateInAMissingDirectoryGivesNilAndErrno() {
        #expect(TemporaryNames.makeDirectory("/nonexistent/shipcheck-XXXXXX") == nil)
        #expect(errno == ENOENT)
        #expect(TemporaryNames.makeFile("/nonexistent/shipcheck-XXXXXX") == nil)
        #expect(errno == ENOENT)
    }
}
