import Testing

@testable import SavedQueries

@Suite struct PathDigestTests {
    @Test func equalPathsShareADigestAndOthersDoNot() {
        // The same path built in different ways (a literal, pieces joined, a substring).
        let joined = ["Module07", "Group3", "File01234.swift"].joined(separator: "/")
        let cut = String("./Module07/Group3/File01234.swift".dropFirst(2))
        #expect(PathDigest("Module07/Group3/File01234.swift") == PathDigest(joined))
        #expect(PathDigest(joined) == PathDigest(cut))
        // Paths a run meets side by side: one byte apart, a prefix of another, the empty one.
        var digests = Set<PathDigest>()
        var paths = Set<String>()
        for module in 0..<20 {
            for file in 0..<1000 {
                let path = "Module\(module)/Group\(file / 50)/File\(file).swift"
                paths.insert(path)
                digests.insert(PathDigest(path))
            }
        }
        for extra in ["", "a", "a/", "a/b", "ab", "b/a", "Module1/Group1/File1.swif", "Module1/Group1/File1.swift\n"] {
            paths.insert(extra)
            digests.insert(PathDigest(extra))
        }
        #expect(digests.count == paths.count)
    }
}
