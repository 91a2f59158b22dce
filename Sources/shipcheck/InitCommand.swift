import ArgumentParser
import ShipcheckCore

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter .shipcheck.yml.",
        discussion: """
            Writes .shipcheck.yml into DIRECTORY (default: the current directory) with every \
            setting explained. An existing file is left alone unless --force is given.
            """
    )

    @Argument(help: "Where to write .shipcheck.yml.")
    var directory: String = "."

    @Flag(help: "Overwrite an existing .shipcheck.yml.")
    var force = false

    func run() throws {
        guard FileKind.of(directory) == .directory else {
            throw InputError(path: directory, message: "not a directory")
        }
        let path = directory == "." ? Configuration.fileName : "\(directory)/\(Configuration.fileName)"
        if FileKind.of(path) != nil && !force {
            throw InputError(path: path, message: "already exists; pass --force to overwrite it")
        }
        try AtomicFile.write(StarterConfiguration.text, to: path)
        printOutput("wrote \(path)\n")
    }
}
