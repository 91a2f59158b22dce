import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import SwiftParser
import Testing

@testable import SourceScan

/// Parsing only the declarations the rules ask for (`PartialParse`) must change nothing a user
/// sees: the same findings at the same lines, columns and byte ranges, the same `--fix`
/// rewrites, the same input errors, the same facts for questions across files.
@Suite struct PartialParseDifferentialTests {
    @Test(arguments: SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions.map(\.id))
    func ruleExamplesAgree(id: String) throws {
        let rule = try #require(SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions.first { $0.id == id })
        for example in rule.triggeringExamples + rule.nonTriggeringExamples {
            let directory = TemporaryDirectory("shipcheck-differential")
            directory.write(example.path, try example.unmarked.text)
            for (path, text) in example.companions { directory.write(path, text) }
            let differences = Self.differences(root: directory.path)
            #expect(differences.isEmpty, "\(id), example at \(example.path):\n\(differences.joined(separator: "\n"))")
        }
    }

    @Test(arguments: ["Samples", "Tests/Fixtures"])
    func committedSwiftAgrees(folder: String) {
        let differences = Self.differences(root: Repository.path(folder))
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// Each committed Swift file's facts, from headers alone (nothing selected) and with every
    /// rule's declarations selected, against the whole tree's.
    @Test(arguments: ["Samples", "Tests/Fixtures"])
    func committedSwiftLeavesTheSameFacts(folder: String) throws {
        let every = SourceRulesCheck.ownRules(among: RuleRegistry.rules).compactMap { rule -> [DeclarationNeed]? in
            guard let rule = rule as? any SwiftSourceRule.Type, case .declarations(let needs) = rule.parseScope
            else { return nil }
            return needs
        }.flatMap { $0 }
        var compared = 0
        for path in Self.swiftFiles(under: Repository.path(folder)) {
            let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
            guard SwiftText.problem(in: bytes, path: path) == nil else { continue }
            let whole = SwiftTypeFacts(tree: Parser.parse(source: String(decoding: bytes, as: UTF8.self)))
            for needs in [[], every] {
                guard let cut = try? PartialParse.parse(bytes: bytes, path: path, needs: needs) else { continue }
                compared += 1
                #expect(cut.file.typeFacts == whole, "\(path)")
            }
        }
        #expect(compared > 0)
    }

    /// The corpus exercises the cut: some files are parsed in part (else the comparisons
    /// above would compare whole parses with themselves).
    @Test func committedSwiftIsParsedInPart() {
        let root = Repository.path("Samples")
        let explained = SourceScanner(
            root: root, configuration: Configuration(), rules: RuleRegistry.rules,
            parsing: SourceParsing(mode: .cut, explains: true)
        ).run().explanations.map(\.message)
        let partial = explained.filter { $0.hasPrefix("parsed in part: ") }
        // Both kinds of cut: top-level pieces left out, and member bodies left out.
        #expect(partial.contains { !$0.contains(" 0 member bodies") }, "\(explained)")
        #expect(
            partial.contains { message in
                let numbers = message.split(separator: " ").compactMap { Int($0) }
                return numbers.count == 3 && numbers[0] < numbers[1]
            }, "\(explained)")
    }

    /// A file the lexer refuses to cut is parsed whole, and still checked.
    @Test func aFileTheCutRefusesIsParsedWhole() {
        let directory = TemporaryDirectory("shipcheck-refused")
        directory.write("View.swift", "import SwiftUI\nlet half = width/2\n#Preview { Text(\"x\") }\n")
        let result = SourceScanner(
            root: directory.path, configuration: Configuration(), rules: RuleRegistry.rules,
            parsing: SourceParsing(mode: .cut, explains: true)
        ).run()
        #expect(result.explanations.map(\.message) == ["parsed whole: a '/' that may start a regex literal"])
        #expect(result.findings.map(\.ruleID) == ["preview-outside-debug"])
        #expect(Self.differences(root: directory.path).isEmpty)
    }

    /// What differs between a whole and a cut run of `sources` and of `sources --fix` on `root`.
    static func differences(root: String) -> [String] {
        func scanner(_ mode: SourceParsing.Mode) -> SourceScanner {
            SourceScanner(
                root: root, configuration: Configuration(), rules: RuleRegistry.rules,
                parsing: SourceParsing(mode: mode))
        }
        var differences: [String] = []
        let whole = scanner(.whole).run(), cut = scanner(.cut).run()
        let wholeFindings = whole.findings.sorted(by: Finding.readingOrder)
        let cutFindings = cut.findings.sorted(by: Finding.readingOrder)
        if wholeFindings != cutFindings {
            differences.append("findings: whole \(wholeFindings)\n  cut \(cutFindings)")
        }
        if whole.inputErrors.map(\.description) != cut.inputErrors.map(\.description) {
            differences.append("input errors: whole \(whole.inputErrors)\n  cut \(cut.inputErrors)")
        }
        let wholeFix = scanner(.whole).fix(), cutFix = scanner(.cut).fix()
        let rewrites = { (result: SourceFixResult) in
            result.fixes.map { "\($0.relativePath) \($0.wrappedPreviews) \($0.movedConstructions)\n\($0.unifiedDiff)" }
        }
        if rewrites(wholeFix) != rewrites(cutFix) {
            differences.append("fixes: whole \(rewrites(wholeFix))\n  cut \(rewrites(cutFix))")
        }
        if wholeFix.notFixed.map(\.description) != cutFix.notFixed.map(\.description) {
            differences.append("not fixed: whole \(wholeFix.notFixed)\n  cut \(cutFix.notFixed)")
        }
        return differences
    }

    static func swiftFiles(under root: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(root + "/" + relative) }
        }
        return files.sorted()
    }
}
