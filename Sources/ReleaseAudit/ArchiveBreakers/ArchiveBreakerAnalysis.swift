import ShipcheckCore
import SourceScan
import SwiftParser
import SwiftSyntax

/// Predicts "cannot find 'MockData' in scope" at Archive time: release code (compiled when
/// `DEBUG` is unset) that names a declaration existing only in DEBUG-only regions or in
/// Development Assets of the same target.
///
/// Files come from the source scanner (same enumeration, same Development Assets). Only files
/// with `#if` bytes or under development paths can declare DEBUG-only names, so only those are
/// parsed first; then only release files containing one of the collected names' bytes are
/// parsed for references. Both passes run in parallel over files.
public struct ArchiveBreakerAnalysis: Sendable {
    public let root: String
    public let configuration: Configuration

    public init(root: String, configuration: Configuration) {
        self.root = root
        self.configuration = configuration
    }

    public func run() -> CheckResult {
        guard let severity = configuration.severity(for: ArchiveBreakerRule.description) else { return CheckResult() }
        let listing = SourceScanner(root: root, configuration: configuration).swiftSources()
        var result = CheckResult(inputErrors: listing.inputErrors)
        let targets = SwiftTargets(swiftFiles: listing.sources.map(\.file.relativePath))
        let sources = listing.sources.filter { !SwiftTargets.isManifest($0.file.relativePath) }
        let evaluator = ReleaseConditionEvaluator(debugOnlyFlags: configuration.debugOnlyFlags, releaseSetFlags: configuration.releaseSetFlags)
        let sizeLimit = configuration.maxFileSize

        // Pass 1: who declares what, in the files that can declare anything DEBUG-only.
        let declaring = sources.parallelMap { source in
            (target: targets.target(of: source.file.relativePath),
             outcome: Self.declarations(in: source, evaluator: evaluator, sizeLimit: sizeLimit))
        }
        var indexes: [String: DebugOnlyIndex] = [:]
        for (target, outcome) in declaring {
            if let error = outcome.error { result.inputErrors.append(error) }
            indexes[target, default: DebugOnlyIndex()].add(outcome.names)
        }
        result.filesScanned = sources.count

        // Pass 2: the release files that mention a candidate name may declare it too, or use it.
        let mentions = indexes.mapValues { NameMentions($0.candidateNames) }
        let releaseFiles = zip(sources, declaring).filter { source, declared in
            source.developmentReason == nil && declared.outcome.error == nil && mentions[declared.target]?.isEmpty == false
        }
        let mentioning = releaseFiles.parallelMap { source, declared in
            (source: source, target: declared.target,
             parsed: Self.parseIfMentioning(source, already: declared.outcome.parsed, names: mentions[declared.target]!,
                                            evaluator: evaluator, sizeLimit: sizeLimit))
        }.compactMap { file in file.parsed.map { (source: file.source, target: file.target, parsed: $0) } }
        for file in mentioning where !file.parsed.namesIndexed { indexes[file.target]!.add(file.parsed.names) }
        for key in indexes.keys { indexes[key]!.sort() }

        // Pass 3: references, now that every release declaration of those names is known.
        let finalIndexes = indexes
        let findings = mentioning.parallelMap { file in
            ReleaseReferenceFinder.find(in: file.parsed.tree, index: finalIndexes[file.target]!, evaluator: evaluator).map {
                ArchiveBreakerFinding.make(for: $0, path: file.source.file.relativePath, file: file.parsed, severity: severity)
            }
        }
        result.findings = findings.flatMap { $0 }
        return result
    }

    /// A file read and parsed once, shared by the passes.
    struct ParsedFile: Sendable {
        var bytes: [UInt8]
        var tree: SourceFileSyntax
        var lines: LineTable
        var names: [DeclaredName]
        /// Whether pass 1 already put `names` in the index.
        var namesIndexed: Bool
    }

    private struct DeclarationOutcome: Sendable {
        /// Nil when the file cannot declare anything DEBUG-only (or could not be read).
        var parsed: ParsedFile?
        var error: InputError?
        var names: [DeclaredName] { parsed?.names ?? [] }
    }

    private static func declarations(in source: SwiftSource, evaluator: ReleaseConditionEvaluator, sizeLimit: Int) -> DeclarationOutcome {
        do {
            let bytes = try SafeFileReader.read(source.file.path, displayPath: source.file.relativePath, sizeLimit: sizeLimit)
            let text = try SwiftSource.text(of: bytes, path: source.file.relativePath)
            guard source.developmentReason != nil || ByteSearch.contains("#if", in: bytes) else { return DeclarationOutcome() }
            let parsed = parse(text, bytes: bytes, path: source.file.relativePath, isDevelopmentAsset: source.developmentReason != nil,
                               evaluator: evaluator, namesIndexed: true)
            return DeclarationOutcome(parsed: parsed)
        } catch {
            return DeclarationOutcome(error: error)
        }
    }

    private static func parseIfMentioning(_ source: SwiftSource, already parsed: ParsedFile?, names: NameMentions,
                                          evaluator: ReleaseConditionEvaluator, sizeLimit: Int) -> ParsedFile? {
        if let parsed {
            return names.isMentioned(in: parsed.bytes) ? parsed : nil
        }
        // Read errors were reported in pass 1; a file that changed since is skipped quietly.
        guard let bytes = try? SafeFileReader.read(source.file.path, displayPath: source.file.relativePath, sizeLimit: sizeLimit),
              names.isMentioned(in: bytes),
              let text = try? SwiftSource.text(of: bytes, path: source.file.relativePath) else { return nil }
        return parse(text, bytes: bytes, path: source.file.relativePath, isDevelopmentAsset: false, evaluator: evaluator, namesIndexed: false)
    }

    private static func parse(_ text: String, bytes: [UInt8], path: String, isDevelopmentAsset: Bool,
                              evaluator: ReleaseConditionEvaluator, namesIndexed: Bool) -> ParsedFile {
        let tree = Parser.parse(source: text)
        let lines = LineTable(bytes)
        let names = DeclarationCollector.collect(in: tree, path: path, lines: lines, evaluator: evaluator, isDevelopmentAsset: isDevelopmentAsset)
        return ParsedFile(bytes: bytes, tree: tree, lines: lines, names: names, namesIndexed: namesIndexed)
    }
}
