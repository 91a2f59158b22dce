import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// A fact about the whole scan a finding depends on.
enum TypeFactRequirement: Sendable, Hashable {
    /// A class or actor with this (unqualified) name is declared somewhere in the scan.
    case referenceType(String)
    /// The type with this name conforms to one of these protocols, directly or through an
    /// extension anywhere in the scan.
    case conformance(type: String, anyOf: [String])
}

/// What the scanned Swift files declare about types, across files: which names are classes
/// (or actors), and which protocols each type name conforms to through its declaration or
/// extensions. Names are unqualified (`Outer.Model` is `Model`), as references in code are.
///
/// Collected cheaply: from the trees the scan parses anyway, and — only when a finding waits on
/// a fact none of those establish — from the other files, where a memmem for the type's name
/// next to `class` / `actor` / `extension` picks the few worth parsing.
struct SwiftTypeFacts: Sendable {
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
        }
    }

    /// The pending findings whose requirement holds. What these facts do not establish is
    /// looked up in `otherFiles` (the files the scan did not parse).
    func confirmed(_ pending: [PendingFinding], lookingAlsoIn otherFiles: [ScannedFile], sizeLimit: Int) -> [Finding] {
        var facts = self
        let unknown = Set(pending.map(\.requirement).filter { !holds($0) })
        if !unknown.isEmpty { facts.formUnion(Self.lookingFor(unknown, in: otherFiles, sizeLimit: sizeLimit)) }
        return pending.filter { facts.holds($0.requirement) }.map(\.finding)
    }

    /// The facts of those `files` that may establish one of `requirements`: only files with the
    /// type's name right after `class` / `actor` (a reference type) or `extension` (a
    /// conformance) are parsed.
    private static func lookingFor(_ requirements: Set<TypeFactRequirement>, in files: [ScannedFile], sizeLimit: Int) -> SwiftTypeFacts {
        let needles = requirements.map { requirement -> (name: [UInt8], keywords: [[UInt8]]) in
            switch requirement {
            case .referenceType(let name): (Array(name.utf8), [Array("class".utf8), Array("actor".utf8)])
            case .conformance(let type, _): (Array(type.utf8), [Array("extension".utf8)])
            }
        }
        let found = files.parallelMap { file -> SwiftTypeFacts? in
            guard let bytes = try? SafeFileReader.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit),
                  bytes.withUnsafeBytes({ hay in needles.contains { follows($0.name, oneOf: $0.keywords, in: hay) } }),
                  let text = try? SwiftSource.text(of: bytes, path: file.relativePath) else { return nil }
            return SwiftTypeFacts(tree: Parser.parse(source: text))
        }
        var facts = SwiftTypeFacts()
        for case let fileFacts? in found { facts.formUnion(fileFacts) }
        return facts
    }

    /// Whether `name` appears as a whole word right after one of the words `keywords`.
    private static func follows(_ name: [UInt8], oneOf keywords: [[UInt8]], in bytes: UnsafeRawBufferPointer) -> Bool {
        name.withUnsafeBytes { needle in
            var from = 0
            while let hit = ByteSearch.find(needle, in: bytes, from: from) {
                from = hit + 1
                let end = hit + needle.count
                guard end == bytes.count || !ByteSearch.isIdentifierByte(bytes[end]) else { continue }
                var start = hit
                while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
                guard start < hit else { continue }
                for keyword in keywords where start >= keyword.count {
                    let keywordStart = start - keyword.count
                    if bytes[keywordStart..<start].elementsEqual(keyword),
                       keywordStart == 0 || !ByteSearch.isIdentifierByte(bytes[keywordStart - 1]) {
                        return true
                    }
                }
            }
            return false
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
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { record(node.name.text, node.inheritanceClause) }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { record(node.name.text, node.inheritanceClause) }
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
