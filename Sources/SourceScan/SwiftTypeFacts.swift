import ScanEngine
import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// A fact about the whole scan a finding depends on.
enum TypeFactRequirement: Sendable, Hashable, Codable {
    /// A class or actor with this (unqualified) name is declared somewhere in the scan.
    case referenceType(String)
    /// The type with this name conforms to one of these protocols, directly or through an
    /// extension anywhere in the scan.
    case conformance(type: String, anyOf: [String])
    /// Some release code calls an initialiser of a type building this argument in the call
    /// (see `ConstructingCalls`); the finding then names the first such call.
    case builtByCaller(ConstructingCalls.Argument)
    /// Some release code in another file stores a closure that may be actor-isolated in this
    /// property (see `ClosureProvenance`); the finding then names the first such store.
    case closureStoredElsewhere(ClosureProvenance.Property)
}

/// What the scanned Swift files declare about types, across files: which names are classes
/// (or actors), and which protocols each type name conforms to through its declaration or
/// extensions. Names are unqualified (`Outer.Model` is `Model`), as references in code are.
///
/// Collected cheaply: from the trees the scan parses anyway, and — only when a finding waits on
/// a fact none of those establish — from the other files that may mention the type's name (their
/// `IdentifierFilter`), where the name right after `class` / `actor` / `extension` picks the
/// few worth parsing.
struct SwiftTypeFacts: Sendable, Codable, Equatable {
    private(set) var referenceTypes: Set<String> = []
    private(set) var conformances: [String: Set<String>] = [:]

    init() {}

    init(tree: SourceFileSyntax) {
        let collector = Collector()
        collector.walk(tree)
        self = collector.facts
    }

    mutating func formUnion(_ other: SwiftTypeFacts) {
        referenceTypes.formUnion(other.referenceTypes)
        conformances.merge(other.conformances) { $0.union($1) }
    }

    func holds(_ requirement: TypeFactRequirement) -> Bool {
        switch requirement {
        case .referenceType(let name): referenceTypes.contains(name)
        case .conformance(let type, let protocols): !(conformances[type] ?? []).isDisjoint(with: protocols)
        case .builtByCaller, .closureStoredElsewhere: false
        }
    }

    /// The pending findings whose requirement holds. Declarations these facts do not know are
    /// looked up in the files the scan did not parse; calls and stores, in every file.
    func confirmed(_ pending: [PendingFinding], files: [LookupFile], context: ScanContext) -> [Finding] {
        guard !pending.isEmpty else { return [] }
        var facts = self
        var needles: Set<Needle> = [], arguments: Set<ConstructingCalls.Argument> = [],
            properties: Set<ClosureProvenance.Property> = []
        for requirement in pending.map(\.requirement) where !holds(requirement) {
            switch requirement {
            case .referenceType(let name): needles.insert(Needle(name: name, keywords: ["class", "actor"]))
            case .conformance(let type, _): needles.insert(Needle(name: type, keywords: ["extension"]))
            case .builtByCaller(let argument): arguments.insert(argument)
            case .closureStoredElsewhere(let property): properties.insert(property)
            }
        }
        let lookups = [
            Self.lookup(for: needles), ConstructingCalls.lookup(for: arguments),
            ClosureProvenance.lookup(for: properties)
        ]
        let answers = FileLookup.answers(lookups.compactMap { $0 }, in: files, context: context)
        facts.formUnion(answers.facts)
        let calls = answers.calls, stores = answers.stores
        return pending.compactMap { pending in
            var finding = pending.finding
            switch pending.requirement {
            case .builtByCaller(let argument):
                guard let call = calls[argument] else { return nil }
                finding.message += " (the call at \(call) builds one)"
            case .closureStoredElsewhere(let property):
                guard let store = stores[property] else { return nil }
                finding.message = finding.message.replacingOccurrences(
                    of: "code in another file stores", with: "\(store) stores")
            case .referenceType, .conformance:
                guard facts.holds(pending.requirement) else { return nil }
            }
            return finding
        }
    }

    /// A type name that establishes a fact where it follows one of `keywords`.
    private struct Needle: Hashable {
        var name: String
        var keywords: [String]
    }

    /// The facts of the files the scan did not parse that may hold one of `needles`: only files
    /// with the type's name right after `class` / `actor` (a reference type) or `extension` (a
    /// conformance) are parsed.
    private static func lookup(for needles: Set<Needle>) -> FileLookup? {
        guard !needles.isEmpty else { return nil }
        let byteNeedles = needles.map { (name: Array($0.name.utf8), keywords: $0.keywords.map { Array($0.utf8) }) }
        return FileLookup(
            releaseOnly: false, names: Set(needles.map(\.name)), unparsedOnly: true,
            question: "types "
                + needles.map { $0.name + ":" + $0.keywords.joined(separator: ",") }.sorted().joined(separator: " "),
            mayHold: { _, hay in byteNeedles.contains { follows($0.name, oneOf: $0.keywords, in: hay) } },
            answer: { LookupAnswers(facts: SwiftTypeFacts(tree: $0.tree)) }
        )
    }

    /// Whether `name` appears as a whole word right after one of the words `keywords`.
    private static func follows(_ name: [UInt8], oneOf keywords: [[UInt8]], in bytes: borrowing ByteView) -> Bool {
        WholeWords.contains(name, in: bytes) { hit in
            let start = WholeWords.skippingBlanks(before: hit, in: bytes)
            guard start < hit else { return false }
            return keywords.contains { keyword in
                guard start >= keyword.count else { return false }
                let keywordStart = start - keyword.count
                return bytes.matches(keyword, at: keywordStart)
                    && (keywordStart == 0 || !ByteSearch.isIdentifierByte(bytes[keywordStart - 1]))
            }
        }
    }

    /// Walks declarations only: function bodies, closures and accessors cannot declare
    /// conformances (local types are rare, and invisible to other files anyway).
    private final class Collector: SyntaxVisitor {
        var facts = SwiftTypeFacts()

        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            facts.referenceTypes.insert(node.name.text)
            return record(node.name.text, node.inheritanceClause)
        }
        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
            facts.referenceTypes.insert(node.name.text)
            return record(node.name.text, node.inheritanceClause)
        }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node.name.text, node.inheritanceClause)
        }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node.name.text, node.inheritanceClause)
        }
        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            record(TypeDeclarations.simpleName(of: node.extendedType), node.inheritanceClause)
        }
        override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: InitializerClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

        private func record(_ name: String, _ clause: InheritanceClauseSyntax?) -> SyntaxVisitorContinueKind {
            let inherited = TypeDeclarations.inheritedNames(clause)
            if !inherited.isEmpty { facts.conformances[name, default: []].formUnion(inherited) }
            return .visitChildren
        }
    }
}
