import ScanEngine
import ShipcheckCore

extension Frontend {
    /// `shipcheck init`: writes the commented starter `.shipcheck.yml` into `directory` (with
    /// `githubActions` / `gitlabCI`, the CI jobs too) and adds the saved-query run state to its
    /// `.gitignore`. Existing files are refused, before anything is written, unless `force`.
    /// `say` prints each step as it is done, so what was written before a failure is reported.
    package static func writeStarterFiles(
        into directory: String, force: Bool, githubActions: Bool, gitlabCI: Bool,
        say: (String) throws(InputError) -> Void
    ) throws(InputError) {
        guard FileKind.of(directory) == .directory else {
            throw InputError(path: directory, message: "not a directory")
        }
        func path(_ name: String) -> String { directory == "." ? name : "\(directory)/\(name)" }
        var files = [(Configuration.fileName, StarterConfiguration.text)]
        if githubActions { files.append((CIJobTemplates.githubActionsPath, CIJobTemplates.githubActions)) }
        if gitlabCI { files.append((CIJobTemplates.gitlabCIPath, CIJobTemplates.gitlabCI)) }
        // Refuse before writing anything, so a refusal never leaves half the files written.
        for (name, _) in files where FileKind.of(path(name)) != nil && !force {
            throw InputError(path: path(name), message: "already exists; pass --force to overwrite it")
        }
        for (name, text) in files {
            try createParents(of: name, in: directory)
            try AtomicFile.write(text, to: path(name))
            try say("wrote \(path(name))\n")
        }
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
        try say("added \(CIJobTemplates.stateIgnoreLine) to \(ignorePath)\n")
    }

    /// Creates the folders above `name` inside `directory` that do not exist yet.
    private static func createParents(of name: String, in directory: String) throws(InputError) {
        var parent = ""
        for component in name.split(separator: "/").dropLast() {
            parent += parent.isEmpty ? String(component) : "/\(component)"
            let path = directory == "." ? parent : "\(directory)/\(parent)"
            if FileKind.of(path) == nil, SystemCalls.makeDirectory(path, mode: 0o755) != 0 {
                throw InputError(path: path, message: "cannot create directory")
            }
        }
    }
}
