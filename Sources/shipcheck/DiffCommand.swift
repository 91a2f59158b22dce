import ArgumentParser
import ShipcheckCore
import ShipcheckFrontend

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Compare a release artifact with the previous release's: what it adds, what grew, and what App Store Connect or Google Play will refuse because of the previous release.",
        discussion: """
            OLD and NEW are two releases of one artifact, of any kind `binary` reads (.app, .ipa, \
            .xcarchive, .xcframework, .framework, Mach-O, ELF, .apk, .aab, .apks, .aar, .so, \
            jniLibs folders), both Apple's or both Android's. Each is read once, the two at \
            once, with every rule of `binary` run on it. Printed, each section only when \
            something in it changed: identity and version (identifier, version, build or \
            versionCode, minimum OS, target SDK, platforms, device families), architectures and \
            ABIs, images, SDKs and their versions, permissions, entitlements, usage \
            descriptions, required-reason API categories, tracking domains, exported components \
            and queries, sizes per part (download and install: executables, frameworks, native \
            libraries per ABI, dex, resources, assets) with totals, segments and sections of the \
            images that changed, and the files that grew most; then the findings: the \
            previous-release rules' (a build number or versionCode not increased, a lower \
            version, another identifier, a test library newly linked, a permission Google Play asks \
            a declaration for newly requested, new privacy details, \
            devices dropped, size budgets: docs/diff.md) and the findings NEW has and OLD did \
            not. Formats: text, markdown (a pull-request comment or job summary), json (the \
            comparison with exact byte counts, and the report), or any report format (sarif, \
            junit, github, gitlab: the findings only). Exit codes: 0 nothing fails the gate \
            (identical releases say so in one line), 1 a previous-release rule's error or an \
            error NEW has that OLD did not (warnings too with --strict), 2 a side unreadable, or \
            the two of different platforms.
            """
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "The previous release's artifact.")
    var old: String

    @Argument(help: "The new release's artifact.")
    var new: String

    func run() throws {
        let configuration = try report.loadConfiguration(root: ".")
        let outcome = Frontend.diff(
            old: old, new: new, configuration: configuration, failingSeverity: report.failingSeverity)
        guard
            let text = Frontend.diffText(
                outcome, old: old, new: new, format: report.format, color: report.color,
                heading: report.wantsHeading, verbose: report.verbose)
        else { try report.emit(outcome.report) }
        for error in outcome.report.inputErrors { printError("shipcheck: \(error)") }
        let sink = try ReportSink(path: report.output)
        sink.write(text.output)
        if let summary = text.summary { printError(summary) }
        try sink.finish()
        throw ExitCode(outcome.report.exitCode)
    }
}
