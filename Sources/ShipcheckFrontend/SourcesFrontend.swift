import ScanEngine
import ShipcheckCore
import SourceScan

/// How `shipcheck sources` runs as a build step (the ShipcheckBuildTool plugin, an Xcode Run
/// Script phase): errors lowered to warnings, files named by absolute path.
package struct SourcesBuildStep: Sendable {
    package var lenient: Bool
    package var absolutePaths: Bool

    package init(lenient: Bool = false, absolutePaths: Bool = false) {
        self.lenient = lenient
        self.absolutePaths = absolutePaths
    }
}

extension Frontend {
    /// `shipcheck sources`: each root with its configuration; with `fix`, the unwrapped previews are wrapped
    /// (and plain constructions moved into `StateObject(wrappedValue:)`) first (with `dryRun`, only shown as a
    /// diff) and the report is a fresh scan of what is left.
    package static func sources(
        _ roots: [(root: String, configuration: Configuration)], fix: Bool, dryRun: Bool,
        buildStep: SourcesBuildStep = SourcesBuildStep(), cache: ResultCacheChoice = .none, failingSeverity: Severity,
        parsing: SourceParsing = SourceParsing()
    ) -> CommandOutcome {
        let scanners = roots.map {
            SourceScanner(
                root: $0.root, configuration: cache.excludingCache(from: $0.configuration, root: $0.root),
                rules: RuleRegistry.rules, parsing: parsing)
        }
        var messages: [String] = []
        if fix {
            let results = scanners.map { $0.fix() }
            messages += results.flatMap(\.notFixed).map(\.noteDescription)
            if dryRun {
                let errors = results.flatMap(\.inputErrors)
                let exitCode = ExitStatus.of(
                    inputErrors: !errors.isEmpty, failsGate: results.contains { !$0.fixes.isEmpty })
                return CommandOutcome(
                    output: results.flatMap(\.fixes).map(\.unifiedDiff).joined(),
                    messages: messages + errors.map(\.description), exitCode: exitCode)
            }
            var wrapped = 0, moved = 0, files = 0
            for change in results.flatMap(\.fixes) {
                do {
                    try change.write()
                    wrapped += change.wrappedPreviews
                    moved += change.movedConstructions
                    files += 1
                } catch {
                    messages.append(error.description)
                }
            }
            if wrapped > 0 {
                messages.append(
                    "wrapped \(wrapped) preview\(wrapped == 1 ? "" : "s") in #if DEBUG in \(files) file\(files == 1 ? "" : "s")"
                )
            }
            if moved > 0 {
                messages.append("moved \(moved) construction\(moved == 1 ? "" : "s") into StateObject(wrappedValue:)")
            }
        }
        // The report is always a fresh scan, so it shows exactly what is left after fixing.
        var combined = CheckResult()
        // One cache for every root: a build step names each file as a root of its own.
        let resultCache = fix ? nil : cache.cache(for: scanners.map(\.root))
        for scanner in scanners {
            var result = scanner.run(cache: resultCache)
            if buildStep.lenient { result.lowerErrorsToWarnings() }
            if buildStep.absolutePaths { result.anchorPaths(at: scanner.root) }
            combined.merge(result)
        }
        cache.save(resultCache, into: &combined)
        return CommandOutcome(
            report: Report(
                findings: combined.findings, inputErrors: combined.inputErrors,
                rules: SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions,
                failingSeverity: failingSeverity),
            messages: messages, notes: combined.notes, explanations: combined.explanations)
    }
}
