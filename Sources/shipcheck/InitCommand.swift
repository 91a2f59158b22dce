import ArgumentParser
import Foundation
import ScanEngine
import ShipcheckCore

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
        guard FileKind.of(directory) == .directory else {
            throw InputError(path: directory, message: "not a directory")
        }
        var files = [(Configuration.fileName, StarterConfiguration.text)]
        if githubActions { files.append((CIJobTemplates.githubActionsPath, CIJobTemplates.githubActions)) }
        if gitlabCI { files.append((CIJobTemplates.gitlabCIPath, CIJobTemplates.gitlabCI)) }
        // Refuse before writing anything, so a refusal never leaves half the files written.
        for (name, _) in files where FileKind.of(path(name)) != nil && !force {
            throw InputError(path: path(name), message: "already exists; pass --force to overwrite it")
        }
        for (name, text) in files {
            try createParent(of: name)
            try AtomicFile.write(text, to: path(name))
            try printOutput("wrote \(path(name))\n")
        }
        try addStateIgnoreLine()
    }

    private func path(_ name: String) -> String { directory == "." ? name : "\(directory)/\(name)" }

    private func createParent(of name: String) throws {
        var parent = ""
        for component in name.split(separator: "/").dropLast() {
            parent += parent.isEmpty ? String(component) : "/\(component)"
            if FileKind.of(path(parent)) == nil, SystemCalls.makeDirectory(path(parent), mode: 0o755) != 0 {
                throw InputError(path: path(parent), message: "cannot create directory")
            }
        }
    }

    private func addStateIgnoreLine() throws {
        let ignorePath = path(".gitignore")
        var text = ""
        if FileKind.of(ignorePath) != nil {
            text = String(lossyUTF8: try SafeFileReader.read(ignorePath))
            if text.split(whereSeparator: \.isNewline).contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == CIJobTemplates.stateIgnoreLine
            }) {
                return
            }
            if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        }
        try AtomicFile.write(text + CIJobTemplates.stateIgnoreLine + "\n", to: ignorePath)
        try printOutput("added \(CIJobTemplates.stateIgnoreLine) to \(ignorePath)\n")
    }
}
