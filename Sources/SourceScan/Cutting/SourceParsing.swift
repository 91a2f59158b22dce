import ScanEngine
import ShipcheckCore

/// How the sources check parses a file holding some rule's text: only the declarations the
/// rules ask for (`PartialParse`, the default), or whole (a diagnostic: both must agree).
package struct SourceParsing: Sendable {
    package enum Mode: String, Sendable, CaseIterable {
        case cut, whole
    }

    package var mode: Mode
    /// Whether each parsed file gets an explanation saying how it was parsed (`--explain`).
    package var explains: Bool
    /// Texts that make another check of the same run parse a file whole: a file holding one is
    /// parsed whole here too, once for both checks.
    package var wholeWhenHolding: [String]

    package init(mode: Mode = .cut, explains: Bool = false, wholeWhenHolding: [String] = []) {
        self.mode = mode
        self.explains = explains
        self.wholeWhenHolding = wholeWhenHolding
    }

    /// The file parsed where `rules` look (`PartialParse`), or whole: when asked to, when some
    /// rule reads whole files, when the cut refuses, when the parsed part does not parse (the
    /// whole file then reports its first syntax error, as it would have); and how it was parsed
    /// (what `explains` shows: kept with the file's result, so a cached run shows it too).
    func parse(_ contents: FileContents, rules: [any SwiftSourceRule.Type], wholeBecause: String?)
        -> (file: ParsedSwiftFile?, explanation: String?)
    {
        guard mode == .cut else { return (ParsedSwiftFile.of(contents), nil) }
        var needs: [DeclarationNeed] = []
        var reason = wholeBecause
        for text in wholeWhenHolding where reason == nil {
            let holds = contents.withBytes { bytes -> Bool in bytes.contains(text) }
            if holds { reason = "holds \(text), which another check parses whole" }
        }
        for rule in rules where reason == nil {
            switch rule.parseScope {
            case .wholeFile: reason = "\(rule.id) reads the whole file"
            case .declarations(let ruleNeeds): needs += ruleNeeds
            }
        }
        var explanation: String
        var file: ParsedSwiftFile?
        if let reason {
            explanation = "parsed whole: " + reason
        } else {
            do throws(CutRefusal) {
                let outcome = try PartialParse.parse(
                    bytes: contents.withBytes { $0.array() }, path: contents.file.relativePath, needs: needs)
                explanation =
                    outcome.isPartial
                    ? "parsed in part: \(outcome.parsedPieces) of \(outcome.pieces) top-level pieces, \(outcome.bodiesLeftOut) member bodies left out"
                    : "parsed whole: every piece is needed"
                file = outcome.file
                if outcome.file.isPartial, outcome.file.syntaxProblem != nil {
                    explanation = "parsed whole: the parsed pieces do not parse"
                    file = nil
                }
            } catch {
                explanation = "parsed whole: " + error.reason
            }
        }
        return (file ?? ParsedSwiftFile.of(contents), explanation)
    }
}
