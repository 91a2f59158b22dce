import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// What the scanner knows about a file before reading it.
struct FileContext: Sendable {
    var relativePath: String
    /// Why the file is development-only (which setting or config glob names it), or nil.
    var developmentReason: String?
}

/// The rules' severities for one run (nil: rule disabled).
struct RuleSeverities: Sendable {
    var preview: Severity?
    var provider: Severity?
    var developmentAsset: Severity?
    var missingPath: Severity?
    /// The file rules' severities by rule id (absent: disabled).
    var fileRules: [String: Severity] = [:]

    init(configuration: Configuration) {
        preview = configuration.severity(for: PreviewOutsideDebugRule.description)
        provider = configuration.severity(for: PreviewProviderOutsideDebugRule.description)
        developmentAsset = configuration.severity(for: DevAssetOutsideDebugRule.description)
        missingPath = configuration.severity(for: DevAssetPathMissingRule.description)
        for rule in SourceScanRules.fileRules { fileRules[rule.description.id] = configuration.severity(for: rule.description) }
    }
}

/// One parsed file and what the rules say about it.
struct SourceFileAnalysis {
    var tree: SourceFileSyntax
    var lines: LineTable
    var findings: [Finding]
    /// Previews a release build compiles and no suppression silences: what `--fix` wraps.
    var unwrappedPreviews: [DetectedPreview]
    /// Findings of the file rules that wait on facts about the whole scan.
    var pending: [PendingFinding] = []
    /// What this file declares about types, for the other files' pending findings.
    var facts: SwiftTypeFacts
    /// The `--fix` rewrites of the file rules' findings, by finding identity.
    var moves: [(identity: String, move: ConstructionMove)] = []
}

/// Parses one Swift file and applies the rules to it.
struct SourceFileAnalyzer: Sendable {
    let evaluator: ReleaseConditionEvaluator
    let severities: RuleSeverities

    /// Whether the file can hold a finding at all: the byte prefilter that keeps the parser
    /// away from most of a large tree (each enabled file rule adds its own).
    func mayContainFinding(_ bytes: [UInt8], context: FileContext) -> Bool {
        if context.developmentReason != nil || ByteSearch.contains("Preview", in: bytes) { return true }
        return bytes.withUnsafeBytes { buffer in
            !TestCode.isTestPath(context.relativePath)
                && SourceScanRules.fileRules.contains { severities.fileRules[$0.description.id] != nil && $0.mayTrigger(buffer) }
        }
    }

    func analyze(_ bytes: [UInt8], context: FileContext) throws(InputError) -> SourceFileAnalysis {
        let text = try SwiftSource.text(of: bytes, path: context.relativePath)
        let tree = Parser.parse(source: text)
        let lines = LineTable(bytes)
        if tree.hasError, let problem = SyntaxErrorLocator.first(in: tree) {
            let line = lines.position(of: problem.offset).line
            throw InputError(path: context.relativePath, line: line, message: "does not parse as Swift (\(problem.description)); not scanned")
        }
        let suppressions = Suppressions(bytes: bytes, lines: lines)
        var findings: [Finding] = []
        var unwrapped: [DetectedPreview] = []
        let describer = FindingDescriber(path: context.relativePath, bytes: bytes, lines: lines)
        for preview in PreviewFinder.find(in: tree) {
            let rule: RuleDescription
            let severity: Severity?
            switch preview.kind {
            case .macro: (rule, severity) = (PreviewOutsideDebugRule.description, severities.preview)
            case .provider: (rule, severity) = (PreviewProviderOutsideDebugRule.description, severities.provider)
            }
            guard let severity, case .compiled(let when, let enclosing) = evaluator.verdict(for: preview.node) else { continue }
            let decision = suppressions.decision(rule: rule.id, line: describer.line(of: preview.anchor), leadingLines: describer.leadingLines(of: preview.node))
            if decision == .suppressed { continue }
            var finding = describer.finding(rule: rule, severity: severity, anchor: preview.anchor,
                                            message: "\(preview.subject) is \(FindingDescriber.compiledPhrase(when: when, enclosing: enclosing))",
                                            identity: preview.identity)
            finding.fixHint = "wrap it in #if DEBUG … #endif (`shipcheck sources --fix` does this)"
            if decision == .missingReason { finding.message += Suppressions.missingReasonNote }
            findings.append(finding)
            unwrapped.append(preview)
        }
        if let reason = context.developmentReason, let severity = severities.developmentAsset,
           let (item, when, enclosing) = firstReleaseCompiledItem(in: tree.statements) {
            let anchor = item.firstToken(viewMode: .sourceAccurate)!
            let decision = suppressions.decision(rule: DevAssetOutsideDebugRule.id, line: describer.line(of: anchor), leadingLines: describer.leadingLines(of: item))
            if decision != .suppressed {
                var subject = Substring(describer.lineText(of: anchor))
                while let last = subject.last, last == "{" || last == " " { subject = subject.dropLast() }
                var finding = describer.finding(
                    rule: DevAssetOutsideDebugRule.description, severity: severity, anchor: anchor,
                    message: "'\(subject)' is \(FindingDescriber.compiledPhrase(when: when, enclosing: enclosing)), but this file is in Development Assets (\(reason)), which Archive builds drop",
                    identity: "development asset: \(ReleaseConditionEvaluator.normalized(item).prefix(120))")
                finding.fixHint = "wrap every declaration of the file (imports may stay outside) in #if DEBUG … #endif"
                if decision == .missingReason { finding.message += Suppressions.missingReasonNote }
                findings.append(finding)
            }
        }
        let file = ParsedSwiftFile(path: context.relativePath, bytes: bytes, tree: tree, lines: lines)
        let fileRules = FileRuleResults(file: file, severities: severities.fileRules, evaluator: evaluator,
                                        suppressions: suppressions, describer: describer)
        return SourceFileAnalysis(tree: tree, lines: lines, findings: findings + fileRules.findings, unwrappedPreviews: unwrapped,
                                  pending: fileRules.pending, facts: SwiftTypeFacts(tree: tree), moves: fileRules.moves)
    }

    /// The first statement or declaration (not an import, not an `#if` itself) that a release
    /// build compiles, looking through `#if` clauses.
    private func firstReleaseCompiledItem(in items: CodeBlockItemListSyntax) -> (Syntax, [String], [String])? {
        for item in items {
            if let ifConfig = item.item.as(IfConfigDeclSyntax.self) {
                for clause in ifConfig.clauses {
                    if case .statements(let inner)? = clause.elements, let found = firstReleaseCompiledItem(in: inner) { return found }
                }
                continue
            }
            if item.item.is(ImportDeclSyntax.self) { continue }
            if case .compiled(let when, let enclosing) = evaluator.verdict(for: item) { return (Syntax(item), when, enclosing) }
        }
        return nil
    }

    /// The line of the first byte sequence that is not UTF-8.
    static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int {
        var line = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar == "\n" { line += 1 }
        }
        return line
    }
}

extension DetectedPreview {
    /// How messages name it: `#Preview`, `#Preview("Dark")`, `struct ContentView_Previews: PreviewProvider`.
    var subject: String {
        switch kind {
        case .macro:
            let node = self.node.asProtocol(FreestandingMacroExpansionSyntax.self)
            let name = node?.arguments.first { $0.label == nil }?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            return name.map { "#Preview(\"\($0)\")" } ?? "#Preview"
        case .provider(let conformance):
            let group = node.asProtocol(DeclGroupSyntax.self)
            let name = node.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
                ?? node.as(StructDeclSyntax.self)?.name.text ?? node.as(ClassDeclSyntax.self)?.name.text
                ?? node.as(EnumDeclSyntax.self)?.name.text ?? node.as(ActorDeclSyntax.self)?.name.text ?? ""
            return "\(group?.introducer.text ?? "type") \(name): \(conformance)"
        }
    }
}
