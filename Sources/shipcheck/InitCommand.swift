import ArgumentParser
import ShipcheckFrontend

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter .shipcheck.yml (and, when asked, CI jobs).",
        discussion: """
            Writes .shipcheck.yml into DIRECTORY (default: the current directory) with every \
            setting explained, and adds `.shipcheck/state/` (saved-query run state) to its \
            .gitignore. Existing files are left alone unless --force is given.

            --github-actions also writes .github/workflows/shipcheck.yml; --gitlab-ci writes \
            .gitlab/shipcheck.yml for your .gitlab-ci.yml to include.
            """
    )

    @Argument(help: "Where to write .shipcheck.yml.")
    var directory: String = "."

    @Flag(help: "Overwrite existing files.")
    var force = false

    @Flag(help: "Also write a GitHub Actions workflow running the audit.")
    var githubActions = false

    @Flag(help: "Also write a GitLab CI job running the audit.")
    var gitlabCI = false

    func run() throws {
        try Frontend.writeStarterFiles(
            into: directory, force: force, githubActions: githubActions, gitlabCI: gitlabCI, say: printOutput)
    }
}
