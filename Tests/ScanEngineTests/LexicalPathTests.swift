import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

@Suite struct LexicalPathTests {
    @Test func foldsDotsAndSlashesAndKeepsPrivate() {
        #expect(LexicalPath.absolute("a//./b/../c.swift", in: "/private/tmp/repo") == "/private/tmp/repo/a/c.swift")
        #expect(LexicalPath.absolute("/private/var/folders/x/../y", in: "/elsewhere") == "/private/var/folders/y")
        #expect(LexicalPath.absolute("../../..", in: "/a") == "/")
    }

    /// `getcwd` on a Mac says `/private/tmp/repo`; an operand relative to it stays inside
    /// (NSString.standardizingPath turned it into `/tmp/repo/a.swift` there, outside).
    @Test func operandsOfAPrivateDirectoryAreInsideIt() {
        #expect(LexicalPath.relative("a.swift", to: "/private/tmp/repo") == "a.swift")
        #expect(LexicalPath.relative("/private/tmp/repo/Sources/../a.swift", to: "/private/tmp/repo") == "a.swift")
        #expect(LexicalPath.relative(".", to: "/private/tmp/repo") == ".")
        #expect(LexicalPath.relative("/private/tmp/other", to: "/private/tmp/repo") == nil)
        #expect(LexicalPath.relative("/private/tmp/repository/a.swift", to: "/private/tmp/repo") == nil)
        #expect(LexicalPath.relative("/x", to: "/") == "x")
    }

    /// A path through a symbolic link to the directory (`/tmp` → `/private/tmp` on a Mac),
    /// to a file that may not exist yet.
    @Test func pathsThroughALinkAreComparedResolved() {
        let root = TemporaryDirectory("shipcheck-lexical-path")
        let real = root.path + "/private/tmp/repo"
        #expect(
            (try? FileManager.default.createDirectory(atPath: real + "/Sources", withIntermediateDirectories: true))
                != nil)
        #expect(symlink("private/tmp", root.path + "/tmp") == 0)
        #expect(LexicalPath.relative(root.path + "/tmp/repo/Sources/New.swift", to: real) == "Sources/New.swift")
        #expect(LexicalPath.relative(root.path + "/tmp/repo", to: real) == ".")
        #expect(LexicalPath.relative(real + "/a.swift", to: root.path + "/tmp/repo") == "a.swift")
        #expect(LexicalPath.relative(root.path + "/tmp/elsewhere/a.swift", to: real) == nil)
    }
}
