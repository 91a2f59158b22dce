import ShipcheckCore

/// A leak rule: documentation (with examples that double as tests) plus the check itself,
/// which reads decoded `BinaryContents` only.
protocol BinaryRule: Rule {
    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding]
}

/// What a rule needs beyond the image: its severity (the rule's default: the configuration's
/// is applied to every check's findings in one place), the run's configuration, where a rule
/// with options finds its own (`Configuration.options(for:)`; never another rule's). Nothing
/// about the other rules' findings: a rule's findings depend on the image and the
/// configuration only, whatever order the rules run in.
struct BinaryRuleContext {
    var severity: Severity
    var configuration: Configuration
}

/// The protocols whose conformances are preview code.
enum PreviewProtocols {
    static let all: Set<String> = [
        "SwiftUI.PreviewProvider", "SwiftUI._PreviewProvider", "SwiftUI.PreviewModifier",
        "DeveloperToolsSupport.PreviewRegistry"
    ]
}

/// `#Preview` expansions are types named by the macro's unique name: `…fMf_…PreviewRegistryfMu_`.
enum PreviewMacroName {
    static func isExpansion(_ typeName: String) -> Bool {
        typeName.contains("fMf") && typeName.contains("PreviewRegistryfMu")
    }

    /// The source position the compiler recorded in the expansion's mangled name: the type's
    /// last component is itself a mangled name (`$s…fMX<line>_<column>_…fMu_`) whose
    /// demangling reads "… in module M file F.swift line L column C".
    static func sourcePosition(of typeName: String) -> (file: String, line: Int, column: Int)? {
        guard let start = typeName.range(of: "$s") else { return nil }
        var mangled = String(typeName[start.lowerBound...])
        if let end = mangled.range(of: "fMu_") ?? mangled.range(of: "fMu") {
            mangled = String(mangled[..<end.upperBound])
        }
        guard let demangled = Demangler.demangleSwift(mangled) else { return nil }
        return parsePosition(demangled)
    }

    static func parsePosition(_ demangled: String) -> (file: String, line: Int, column: Int)? {
        guard let fileRange = demangled.range(of: " file "),
            let lineRange = demangled.range(of: " line ", range: fileRange.upperBound..<demangled.endIndex),
            let columnRange = demangled.range(of: " column ", range: lineRange.upperBound..<demangled.endIndex)
        else { return nil }
        let file = String(demangled[fileRange.upperBound..<lineRange.lowerBound])
        let line = Int(demangled[lineRange.upperBound..<columnRange.lowerBound])
        let column = Int(demangled[columnRange.upperBound...].prefix { $0.isNumber })
        guard let line, let column else { return nil }
        return (file, line, column)
    }
}

extension RuleInput {
    package static let binary = RuleInput("binary image")
}

extension BinaryRule {
    package static var inputs: Set<RuleInput> { [.binary] }
}
