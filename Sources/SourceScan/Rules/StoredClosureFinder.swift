import ScanEngine
import ShipcheckCore
import SwiftSyntax

/// The check of `unchecked-sendable-closure`: stored properties of function type that are
/// neither `@Sendable` nor global-actor isolated, in `@unchecked Sendable` classes and structs
/// (conformance declared on the type or by an extension in the same file), and `var`s of
/// function type marked `nonisolated(unsafe)` outside function bodies — unless
/// `ClosureProvenance` shows the closures stored there cannot be actor-isolated, or stay on
/// one global actor.
final class StoredClosureFinder: ClassAndStructVisitor {
    private(set) var hits: [ProposedFinding] = []
    private let path: String
    private let provenance: ClosureProvenance
    private var declarations: FileDeclarations { provenance.declarations }

    private init(file: ParsedSwiftFile) {
        path = file.path
        provenance = ClosureProvenance(tree: file.tree, lines: file.lines)
        super.init()
    }

    static func hits(in file: ParsedSwiftFile) -> [ProposedFinding] {
        let finder = StoredClosureFinder(file: file)
        finder.walk(file.tree)
        return finder.hits
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard Self.isNonisolatedUnsafe(node), node.bindingSpecifier.tokenKind == .keyword(.var),
            node.parent?.is(MemberBlockItemSyntax.self) == true
                || node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
        else {
            return .skipChildren
        }
        let isStatic = node.modifiers.contains { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
        let owner = Self.enclosingType(of: Syntax(node))
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
                TypeDeclarations.isStored(binding),
                let type = binding.typeAnnotation?.type, let closure = declarations.uncheckedFunctionType(in: type)
            else { continue }
            let ownerName = owner.flatMap { TypeDeclarations.name(of: $0) }
            report(
                name: name, type: type, closure: closure, decl: node, binding: binding, owner: owner,
                identity: [ownerName, name.text].compactMap { $0 }.joined(separator: "."),
                message:
                    "`\(name.text): \(Self.oneLine(type))` is a `nonisolated(unsafe) \(isStatic ? "static var" : "var")` of function type: nothing checks what the closure captures or which thread calls it"
            )
        }
        return .skipChildren
    }

    override func inspect(_ decl: any DeclGroupSyntax, typeName: String) {
        let sameFileExtensions = declarations.extensions[typeName] ?? []
        guard
            TypeDeclarations.declaresUncheckedSendable(decl.inheritanceClause)
                || sameFileExtensions.contains(where: {
                    TypeDeclarations.declaresUncheckedSendable($0.inheritanceClause)
                }),
            TypeDeclarations.globalActor(in: decl.attributes) == nil
        else { return }
        for property in TypeDeclarations.storedProperties(in: decl.memberBlock) {
            guard !Self.isNonisolatedUnsafe(property.decl),
                TypeDeclarations.globalActor(in: property.decl.attributes) == nil,
                let type = property.type, let closure = declarations.uncheckedFunctionType(in: type)
            else { continue }
            let name = property.name.text
            report(
                name: property.name, type: type, closure: closure, decl: property.decl, binding: property.binding,
                owner: decl,
                identity: "\(typeName).\(name)",
                message:
                    "`\(name): \(Self.oneLine(type))` is a stored closure of \(typeName), which is @unchecked Sendable: nothing checks what the closure captures or which thread calls it"
            )
        }
    }

    private func report(
        name: TokenSyntax, type: TypeSyntax, closure: FileDeclarations.UncheckedClosure, decl: VariableDeclSyntax,
        binding: PatternBindingSyntax, owner: (any DeclGroupSyntax)?, identity: String, message: String
    ) {
        var message = message
        var requirement: TypeFactRequirement?
        switch provenance.verdict(name: name, decl: decl, binding: binding, owner: owner) {
        case .safe:
            return
        case .unsafe(let reason):
            message += "; \(reason)"
        case .safeUnlessWrittenElsewhere:
            message += "; code in another file stores a closure that may be actor-isolated in it"
            requirement = .closureStoredElsewhere(
                ClosureProvenance.Property(
                    name: name.text, owner: owner.flatMap { TypeDeclarations.name(of: $0) }, path: path))
        }
        let suggestion: String
        switch closure {
        case .written(let function):
            let text = Self.oneLine(type), functionText = Self.oneLine(function)
            suggestion = "`\(text.replacingOccurrences(of: functionText, with: "@Sendable " + functionText))`"
        case .alias(let alias):
            suggestion = "in `typealias \(alias)`"
        }
        hits.append(
            ProposedFinding(
                anchor: name, scope: Syntax(decl),
                message: message
                    + "; a closure formed on the main actor and called from another thread crashes (dispatch_assert_queue)",
                identity: identity,
                fixHint:
                    "declare the function type @Sendable, \(suggestion) (or @MainActor if it must run on the main actor)",
                requirement: requirement))
    }

    private static func isNonisolatedUnsafe(_ decl: VariableDeclSyntax) -> Bool {
        decl.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) && $0.detail?.detail.text == "unsafe" }
    }

    /// `(A,\n B) -> C` as `(A, B) -> C`, for messages.
    private static func oneLine(_ node: some SyntaxProtocol) -> String {
        node.trimmedDescription.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
    }

    private static func enclosingType(of node: Syntax) -> (any DeclGroupSyntax)? {
        var current = node.parent
        while let syntax = current {
            if let group = syntax.asProtocol(DeclGroupSyntax.self) { return group }
            current = syntax.parent
        }
        return nil
    }

    // MARK: Prefilter

    /// Whether some line declares `let`/`var NAME:` or `typealias NAME =` before a `->`: the
    /// byte-level shape of a function-typed property or alias (a type spelled over several
    /// lines is missed).
    static func mayDeclareFunctionTypedStorage(_ bytes: borrowing ByteView) -> Bool {
        let arrow: [UInt8] = Array("->".utf8)
        var from = 0
        while let hit = bytes.firstIndex(of: arrow, from: from) {
            from = hit + arrow.count
            var lineStart = hit
            while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            if bytes.withSlice(lineStart..<hit, { declaresName(in: $0) }) { return true }
        }
        return false
    }

    private static let declaringKeywords: [[UInt8]] = ["let", "var", "typealias"].map { Array($0.utf8) }

    /// `… let|var NAME :` or `… typealias NAME … =` in one line's bytes before an arrow.
    private static func declaresName(in line: borrowing ByteView) -> Bool {
        var index = 0
        func skipBlanks() { while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 } }
        while index < line.count {
            guard ByteSearch.isIdentifierByte(line[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < line.count, ByteSearch.isIdentifierByte(line[index]) { index += 1 }
            guard
                let keyword = declaringKeywords.firstIndex(where: {
                    $0.count == index - start && line.matches($0, at: start)
                })
            else {
                continue
            }
            skipBlanks()
            let nameStart = index
            while index < line.count, ByteSearch.isIdentifierByte(line[index]) { index += 1 }
            guard index > nameStart else { continue }
            if declaringKeywords[keyword] == declaringKeywords[2] {
                return line.firstIndex(of: 0x3D, from: index) != nil
            }
            skipBlanks()
            if index < line.count, line[index] == 0x3A { return true }
        }
        return false
    }
}
