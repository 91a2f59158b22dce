import ArgumentParser
import BinaryInspect
import ShipcheckCore
import ShipcheckFrontend

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

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the listing to FILE (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(
        name: [.customShort("D"), .long],
        help: "List what the dynamic linker sees (.dynsym; Mach-O exports and imports).")
    var dynamic = false

    @Option(
        help: ArgumentHelp(
            "List only this slice of universal Mach-O files (arm64, arm64_32, x86_64, armv7k…).", valueName: "arch")
    )
    var arch: String?

    @Option(help: "Demangling: full, simplified or none.")
    var demangle: DemangleStyle = .full

    @Flag(help: "Only symbols defined in the file.")
    var definedOnly = false

    @Flag(help: "Only undefined (imported) symbols.")
    var undefinedOnly = false

    @Option(
        help: ArgumentHelp(
            "Only symbols whose mangled or demangled name matches this regular expression.", valueName: "pattern"))
    var grep: String?

    @Flag(help: "Sort by size (smallest first), like nm --size-sort.")
    var sizeSort = false

    @Argument(help: "ELF or Mach-O files, or static archives.")
    var files: [String]

    func validate() throws {
        if definedOnly && undefinedOnly {
            throw ValidationError("--defined-only and --undefined-only exclude each other")
        }
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
        // Written as it is made, into the file (atomically) or standard output.
        let sink = try ReportSink(path: output)
        let code = Frontend.listSymbols(files, options: options, format: format, into: sink.output) { error in
            printError("shipcheck: \(error)")
        }
        try sink.finish()
        // Exit here rather than return: tearing down a file's symbols (one release per name)
        // costs more than the kernel reclaiming the whole heap at once.
        exitProcess(code)
    }
}
