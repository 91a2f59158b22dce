import ShipcheckCore

/// The source scanner's entry point: every SwiftUI preview and every Development Assets
/// Swift file under `root` must be compiled only when `DEBUG` is set.
///
/// Files come from `FileEnumerator` (git's view inside a work tree). Development Assets come
/// from the Xcode projects, `.xcconfig` files and XcodeGen specs among them, plus the
/// configuration's `development-paths`. Swift files that contain no `Preview` bytes and are
/// not development-only are never parsed; the rest are parsed in parallel.
public struct SourceScanner: Sendable {
    public let root: String
    public let configuration: Configuration

    public init(root: String, configuration: Configuration) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.configuration = configuration
    }

    public func run() -> CheckResult {
        var result = CheckResult()
        let plan = makePlan(into: &result)
        let analyzer = makeAnalyzer()
        let outcomes = plan.swiftFiles.parallelMap { file, context in
            Self.scan(file, context: context, analyzer: analyzer, sizeLimit: configuration.maxFileSize)
        }
        var facts = SwiftTypeFacts()
        var pending: [PendingFinding] = []
        var parsed: [ScannedFile] = [], unparsed: [ScannedFile] = []
        for (outcome, (file, _)) in zip(outcomes, plan.swiftFiles) {
            result.findings += outcome.findings
            if let error = outcome.error { result.inputErrors.append(error) }
            if let fileFacts = outcome.facts {
                facts.formUnion(fileFacts)
                parsed.append(file)
            } else {
                unparsed.append(file)
            }
            pending += outcome.pending
        }
        result.findings += facts.confirmed(pending, parsed: parsed, unparsed: unparsed, sizeLimit: configuration.maxFileSize)
        result.filesScanned += plan.swiftFiles.count
        return result
    }

    /// Computes the rewrites `--fix` would make; nothing is written (see `SourceFix.write()`).
    public func fix() -> SourceFixResult {
        var scan = CheckResult()
        let plan = makePlan(into: &scan)
        let analyzer = makeAnalyzer()
        let outcomes = plan.swiftFiles.parallelMap { file, context in
            Self.fix(file, context: context, analyzer: analyzer, sizeLimit: configuration.maxFileSize)
        }
        var result = SourceFixResult(inputErrors: scan.inputErrors)
        for outcome in outcomes {
            if let fix = outcome.fix { result.fixes.append(fix) }
            result.notFixed += outcome.notFixed
            if let error = outcome.error { result.inputErrors.append(error) }
        }
        return result
    }

    /// The Swift files this scanner reads, with what makes each development-only (Development
    /// Assets from the Xcode projects and specs, and `development-paths`).
    public func swiftSources() -> SwiftSourceSet {
        var result = CheckResult()
        let plan = makePlan(into: &result)
        return SwiftSourceSet(sources: plan.swiftFiles.map { SwiftSource(file: $0.0, developmentReason: $0.1.developmentReason) },
                              inputErrors: result.inputErrors)
    }

    private func makeAnalyzer() -> SourceFileAnalyzer {
        SourceFileAnalyzer(evaluator: ReleaseConditionEvaluator(debugOnlyFlags: configuration.debugOnlyFlags,
                                                                releaseSetFlags: configuration.releaseSetFlags),
                           severities: RuleSeverities(configuration: configuration))
    }

    /// The Swift files to read, each with what makes it development-only; project-level
    /// findings (missing asset paths) and errors go straight into `result`.
    struct Plan {
        var swiftFiles: [(ScannedFile, FileContext)]
    }

    private func makePlan(into result: inout CheckResult) -> Plan {
        let enumeration = FileEnumerator(root: root, configuration: configuration).enumerate()
        result.inputErrors += enumeration.errors
        let assets = DevelopmentAssets(files: enumeration.files, root: root, sizeLimit: configuration.maxFileSize)
        result.inputErrors += assets.errors
        if let severity = configuration.severity(for: DevAssetPathMissingRule.description) {
            result.findings += MissingAssetPaths.findings(for: assets.paths, root: root, severity: severity)
        }
        let swiftFiles = enumeration.files.filter { $0.relativePath.hasSuffix(".swift") }.map { file in
            (file, FileContext(relativePath: file.relativePath, developmentReason: developmentReason(for: file.relativePath, assets: assets)))
        }
        return Plan(swiftFiles: swiftFiles)
    }

    private func developmentReason(for path: String, assets: DevelopmentAssets) -> String? {
        if let asset = assets.paths.first(where: { path == $0.path || path.hasPrefix($0.path == "." ? "" : $0.path + "/") }) {
            let place = asset.setting.line.map { "\(asset.setting.file):\($0)" } ?? asset.setting.file
            return "DEVELOPMENT_ASSET_PATHS '\(asset.path)' at \(place)"
        }
        if configuration.developmentPaths.matches(path) {
            return "development-paths in \(configuration.sourcePath ?? Configuration.fileName)"
        }
        return nil
    }

    private struct FileOutcome: Sendable {
        var findings: [Finding] = []
        var error: InputError?
        /// What the file declares about types (nil: not parsed).
        var facts: SwiftTypeFacts?
        var pending: [PendingFinding] = []
    }

    private static func scan(_ file: ScannedFile, context: FileContext, analyzer: SourceFileAnalyzer, sizeLimit: Int) -> FileOutcome {
        do {
            let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
            guard analyzer.mayContainFinding(bytes, context: context) else { return FileOutcome() }
            let analysis = try analyzer.analyze(bytes, context: context)
            return FileOutcome(findings: analysis.findings, facts: analysis.facts, pending: analysis.pending)
        } catch {
            return FileOutcome(error: error)
        }
    }

    private struct FixOutcome: Sendable {
        var fix: SourceFix?
        var notFixed: [InputError] = []
        var error: InputError?
    }

    private static func fix(_ file: ScannedFile, context: FileContext, analyzer: SourceFileAnalyzer, sizeLimit: Int) -> FixOutcome {
        do {
            let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
            guard analyzer.mayContainFinding(bytes, context: context) else { return FixOutcome() }
            var analysis = try analyzer.analyze(bytes, context: context)
            var outcome = FixOutcome()
            var current = bytes
            var wrapped = 0, moved = 0
            if !analysis.unwrappedPreviews.isEmpty {
                let rewrite = PreviewFixer.fix(bytes, analysis: analysis)
                outcome.notFixed = rewrite.skipped.map {
                    InputError(path: file.relativePath, line: $0.line == 0 ? nil : $0.line, message: "preview not fixed: \($0.reason); wrap it by hand")
                }
                if rewrite.wrapped > 0 {
                    // The rewrite must parse, keep every original token, and leave the wrapped previews wrapped.
                    let after = try? analyzer.analyze(rewrite.fixed, context: context)
                    let fixedIdentities = Set(analysis.unwrappedPreviews.map(\.identity))
                    let stillUnwrapped = after?.unwrappedPreviews.filter { fixedIdentities.contains($0.identity) }.count ?? .max
                    if let after, PreviewFixer.verify(original: analysis.tree, fixed: rewrite.fixed), stillUnwrapped == rewrite.skipped.count {
                        (current, wrapped, analysis) = (rewrite.fixed, rewrite.wrapped, after)
                    } else {
                        outcome.notFixed.append(InputError(path: file.relativePath, message: "refusing to fix: the rewritten file would not parse the same way; wrap its previews by hand"))
                    }
                }
            }
            if !analysis.moves.isEmpty {
                // The same checks for moved constructions: the rewrite parses, has the original's
                // tokens moved and nothing else, and no longer reports what it fixed.
                let moves = analysis.moves.map(\.move)
                let fixed = ConstructionMove.apply(moves, to: current)
                let movedIdentities = Set(analysis.moves.map(\.identity))
                let left = (try? analyzer.analyze(fixed, context: context))?.findings.filter {
                    $0.ruleID == StateBuiltInInitRule.id && movedIdentities.contains($0.identity ?? "")
                }.count ?? .max
                if left == 0, ConstructionMove.verify(original: analysis.tree, moves: moves, fixed: fixed) {
                    (current, moved) = (fixed, moves.count)
                } else {
                    outcome.notFixed.append(InputError(path: file.relativePath, message: "refusing to move constructions into StateObject(wrappedValue:): the rewritten file would not parse the same way; move them by hand"))
                }
            }
            guard current != bytes else { return outcome }
            outcome.fix = SourceFix(relativePath: file.relativePath, path: file.path, original: bytes, fixed: current,
                                    wrappedPreviews: wrapped, movedConstructions: moved)
            return outcome
        } catch {
            return FixOutcome(error: error)
        }
    }
}

/// What `--fix` changes in one file.
public struct SourceFix: Sendable {
    public var relativePath: String
    public var path: String
    public var original: [UInt8]
    public var fixed: [UInt8]
    public var wrappedPreviews: Int
    /// Constructions moved into `StateObject(wrappedValue:)` (`state-built-in-init`).
    public var movedConstructions: Int

    /// The change as a unified diff against `a/PATH` and `b/PATH`.
    public var unifiedDiff: String {
        UnifiedDiff.render(original: String(decoding: original, as: UTF8.self), modified: String(decoding: fixed, as: UTF8.self), path: relativePath)
    }

    /// Replaces the file atomically, unless it changed since it was read.
    public func write() throws(InputError) {
        let current = try SafeFileReader.read(path, displayPath: relativePath)
        guard current == original else { throw InputError(path: relativePath, message: "changed while fixing; not rewritten") }
        try AtomicFile.write(fixed, to: path)
    }
}

/// All the rewrites of one `fix()` run and the inputs it could not handle.
public struct SourceFixResult: Sendable {
    public var fixes: [SourceFix] = []
    /// Previews (or files) `--fix` left alone, and why; the scan still reports them.
    public var notFixed: [InputError] = []
    /// Inputs that could not be read or parsed (the scan reports them too).
    public var inputErrors: [InputError] = []

    public var wrappedPreviews: Int { fixes.reduce(0) { $0 + $1.wrappedPreviews } }
    public var movedConstructions: Int { fixes.reduce(0) { $0 + $1.movedConstructions } }
}
