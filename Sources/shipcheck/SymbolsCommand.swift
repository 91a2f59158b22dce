import ArgumentParser
import Foundation
import BinaryInspect
import ShipcheckCore

extension DemangleStyle: ExpressibleByArgument {}
extension SymbolFormat: ExpressibleByArgument {}

struct SymbolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbols",
        abstract: "List the symbols of ELF and Mach-O files, with Swift and C++ names demangled.",
        discussion: """
            A Swift-aware nm: one row per symbol of .symtab / LC_SYMTAB and the Mach-O export trie \
            (or, with --dynamic, what the dynamic linker sees) with value, size, nm letter, type, \
            binding, visibility, section and name. Archive members and universal-file slices are \
            listed each with their name. Exit codes: 0 listed, 2 an input could not be read.
            """
    )

    @Option(name: .shortAndLong, help: "Output format: text, json, csv.")
    var format: SymbolFormat = .text

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the listing to FILE (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: [.customShort("D"), .long], help: "List what the dynamic linker sees (.dynsym; Mach-O exports and imports).")
    var dynamic = false

    @Option(help: ArgumentHelp("List only this slice of universal Mach-O files (arm64, arm64e, x86_64).", valueName: "arch"))
    var arch: String?

    @Option(help: "Demangling: full, simplified or none.")
    var demangle: DemangleStyle = .full

    @Flag(help: "Only symbols defined in the file.")
    var definedOnly = false

    @Flag(help: "Only undefined (imported) symbols.")
    var undefinedOnly = false

    @Option(help: ArgumentHelp("Only symbols whose mangled or demangled name matches this regular expression.", valueName: "pattern"))
    var grep: String?

    @Flag(help: "Sort by size (smallest first), like nm --size-sort.")
    var sizeSort = false

    @Argument(help: "ELF or Mach-O files, or static archives.")
    var files: [String]

    func validate() throws {
        if definedOnly && undefinedOnly { throw ValidationError("--defined-only and --undefined-only exclude each other") }
        if files.isEmpty { throw ValidationError("give at least one binary") }
    }

    func run() throws {
        var options = SymbolListOptions()
        options.table = dynamic ? .dynsym : .symtab
        options.demangle = demangle
        options.definedOnly = definedOnly
        options.undefinedOnly = undefinedOnly
        options.grep = grep
        options.sizeSort = sizeSort
        options.architecture = arch
        var rows: [SymbolRow] = []
        var failed = false
        for file in files {
            do {
                var memberErrors: [InputError] = []
                let fileRows = try SymbolListing.rows(of: file, options: options, memberErrors: &memberErrors)
                // The one file's rows taken as they are: appending would copy (and retain) every row.
                if rows.isEmpty { rows = fileRows } else { rows += fileRows }
                for error in memberErrors { printError("shipcheck: \(error)") }
                failed = failed || !memberErrors.isEmpty
            } catch {
                printError("shipcheck: \(error)")
                failed = true
            }
        }
        if let output {
            try AtomicFile.write(SymbolRenderer.render(rows, format: format, showPath: files.count > 1), to: output)
        } else {
            // Parts of 8,192 rows (about a megabyte) go to the descriptor as they are, not copied.
            let standardOutput = ByteOutput.standardOutput()
            for part in SymbolRenderer.renderParts(rows, format: format, showPath: files.count > 1) { standardOutput.write(part) }
            // A closed pipe (`| head`) ends the listing quietly, as nm's does.
            try? standardOutput.flush()
        }
        // Exit here rather than return: tearing down hundreds of thousands of rows (one release
        // per string) costs more than the kernel reclaiming the whole heap at once.
        exitProcess(failed ? ExitStatus.inputError : ExitStatus.clean)
    }
}
