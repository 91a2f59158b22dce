import Foundation
import ShipcheckTestSupport
import Testing

/// `shipcheck audit` where git cannot run, as inside SwiftPM's plugin sandbox on macOS (where
/// `swift package shipcheck` runs it): `/usr/bin/git` there is an xcrun shim that refuses to
/// run. The listing falls back to a walk, which must still leave out what `.gitignore` does.
@Suite struct GitUnavailableTests {
    /// A repository with a preview outside `#if DEBUG` in a tracked file and the same slip in a
    /// vendored folder and a build folder its `.gitignore` excludes (never committed, as such
    /// folders are not).
    func repositoryWithIgnoredFindings() -> GitFixture {
        let repository = GitFixture()
        let slip = "import SwiftUI\nstruct V: View { var body: some View { Text(\"\") } }\n#Preview { V() }\n"
        repository.write(".gitignore", "/Pods/\n.build/\n")
        repository.write("App/ContentView.swift", slip)
        repository.commitAll("app")
        repository.write("Pods/Lib/Preview.swift", slip)
        repository.write(".build/checkouts/dep/Preview.swift", slip)
        return repository
    }

    /// A `git` that fails as the sandbox's shim does, first on PATH; it leaves a mark so the test
    /// knows shipcheck asked it.
    func failingGit() -> (bin: TemporaryDirectory, mark: String) {
        let bin = TemporaryDirectory("shipcheck-sandboxed-git")
        let mark = bin.path + "/asked"
        let script = bin.write(
            "git",
            """
            #!/bin/sh
            echo "$*" >> '\(mark)'
            echo "xcrun: error: cannot be used within an App Sandbox." >&2
            exit 1

            """)
        try! FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return (bin, mark)
    }

    func findingPaths(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasSuffix("[preview-outside-debug]") }
            .map { String($0.prefix { $0 != ":" }) }.sorted()
    }

    @Test func auditWithoutGitLeavesOutWhatGitignoreExcludes() {
        let repository = repositoryWithIgnoredFindings()
        let withGit = CommandRunner.shipcheck(["audit", repository.path])
        #expect(findingPaths(withGit.stdout) == ["App/ContentView.swift"], "\(withGit.stdout)")

        let (bin, mark) = failingGit()
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let withoutGit = CommandRunner.shipcheck(["audit", repository.path], environment: ["PATH": path])
        #expect(bin.read("asked")?.contains("ls-files") == true, "shipcheck never tried git: \(mark)")
        #expect(
            findingPaths(withoutGit.stdout) == ["App/ContentView.swift"], "\(withoutGit.stdout)\n\(withoutGit.stderr)")
    }
}
