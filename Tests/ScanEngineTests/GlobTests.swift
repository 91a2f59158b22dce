import Testing

@testable import ScanEngine

@Suite struct GlobTests {
    @Test(arguments: [
        ("*.rst", "docs/guide/intro.rst", true),
        ("*.rst", "intro.rst", true),
        ("*.rst", "intro.rst.txt", false),
        ("Docs/**", "Docs/a/b.md", true),
        ("Docs/**", "Other/Docs/a.md", false),
        ("**/Fixtures/**", "Tests/Fixtures/x.swift", true),
        ("Fixtures", "Tests/Fixtures/x.swift", true),
        ("App/Preview Content", "App/Preview Content/Data.swift", true),
        ("App/*.swift", "App/Main.swift", true),
        ("App/*.swift", "App/Sub/Main.swift", false),
        ("file?.txt", "file1.txt", true),
        ("file[0-9].txt", "file7.txt", true),
        ("file[!0-9].txt", "file7.txt", false),
        ("/Top.swift", "Top.swift", true),
        ("/Top.swift", "Sub/Top.swift", false),
        ("**/*.swift", "a/b/c.swift", true),
        ("a/**/z.txt", "a/z.txt", true),
        ("a/**/z.txt", "a/b/c/z.txt", true)
    ])
    func matches(pattern: String, path: String, expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }

    @Test func lastMatchingPatternWinsWithNegation() {
        let list = GlobList(["Fixtures/**", "!Fixtures/keep.swift"])
        #expect(list.matches("Fixtures/a.swift"))
        #expect(!list.matches("Fixtures/keep.swift"))
        #expect(!list.matches("Sources/a.swift"))
    }
}
