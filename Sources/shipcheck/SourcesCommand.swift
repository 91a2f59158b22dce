import ArgumentParser
import Foundation
import ShipcheckCore
import SourceScan

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Check that every SwiftUI preview and Development Assets file is compiled only when DEBUG is set.",
        discussion: """
            Reports #Preview macros and PreviewProvider / PreviewModifier types that a release build \
            compiles, Swift files in Development Assets (DEVELOPMENT_ASSET_PATHS, development-paths) \
            with declarations outside #if DEBUG, and DEVELOPMENT_ASSET_PATHS entries that do not exist.

            --fix wraps each unwrapped preview in #if DEBUG … #endif and then reports what is left; \
            --fix --dry-run prints the changes as a unified diff instead (exit 1 when there are \
            changes, 0 when none, 2 on input errors).
            """
    )

    @OptionGroup var report: ReportOptions

    @Flag(help: "Wrap unwrapped previews in #if DEBUG … #endif and move plain constructions into StateObject(wrappedValue:), then report what is left.")
    var fix = false

    @Flag(help: "With --fix: print the changes as a unified diff and write nothing.")
    var dryRun = false

    @Argument(help: "Files or directories to check (default: the current directory).")
    var paths: [String] = []

    func validate() throws {
        if dryRun && !fix { throw ValidationError("--dry-run only applies to --fix") }
    }

    func run() throws {
        let roots = paths.isEmpty ? ["."] : paths
        let scanners = try roots.map { root in SourceScanner(root: root, configuration: try report.loadConfiguration(root: root)) }
        if fix {
            let results = scanners.map { $0.fix() }
            for note in results.flatMap(\.notFixed) { printError("shipcheck: \(note.description.replacingOccurrences(of: ": error: ", with: ": note: "))") }
            if dryRun {
                for result in results { for change in result.fixes { printOutput(change.unifiedDiff) } }
                let errors = results.flatMap(\.inputErrors)
                for error in errors { printError("shipcheck: \(error)") }
                throw ExitCode(!errors.isEmpty ? ExitStatus.inputError : results.contains { !$0.fixes.isEmpty } ? ExitStatus.findings : ExitStatus.clean)
            }
            var wrapped = 0, moved = 0, files = 0
            for change in results.flatMap(\.fixes) {
                do {
                    try change.write()
                    wrapped += change.wrappedPreviews
                    moved += change.movedConstructions
                    files += 1
                } catch {
                    printError("shipcheck: \(error)")
                }
            }
            if wrapped > 0 { printError("shipcheck: wrapped \(wrapped) preview\(wrapped == 1 ? "" : "s") in #if DEBUG in \(files) file\(files == 1 ? "" : "s")") }
            if moved > 0 { printError("shipcheck: moved \(moved) construction\(moved == 1 ? "" : "s") into StateObject(wrappedValue:)") }
        }
        // The report is always a fresh scan, so it shows exactly what is left after fixing.
        var combined = CheckResult()
        for scanner in scanners { combined.merge(scanner.run()) }
        try report.emit(Report(findings: combined.findings, inputErrors: combined.inputErrors, rules: SourceScanRules.all,
                               failingSeverity: report.failingSeverity))
    }
}
