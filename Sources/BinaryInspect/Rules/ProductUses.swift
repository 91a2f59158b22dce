/// Which of the types `binary-mock-symbol` matched the product's own code uses, by the metadata,
/// and how. Such a type is product code whose domain word happens to be "stub" or "fake" (swift-build's
/// `StubBinaryTaskProducer`), so the rule reports it as a note. Evidence of use:
///
/// - **a stored property** of a product type declared as the type, one nested in it, or one
///   wrapping it (`var error: StubError?`, `[Stub]`). Enum case payloads do not count: an enum
///   case holding a double (`case mock(MockFileSystem)`) is how code picks between the real
///   implementation and the double at run time, not a use of the double by the product.
/// - **a conformance to a product protocol**, or **a product superclass**: declared in this image,
///   not test code, and not the one the double is named after. A test double is named after the
///   seam it fills, so a protocol or class whose name contains the matched type's name without its
///   pattern word is that seam (`MockFileSystem: AsyncFileSystem`,
///   `MockIncrementalCompilationSynchronizer: IncrementalCompilationSynchronizer`), and a
///   conformance to it is what makes the type a double; any other (`StubBinaryTaskProducer:
///   TaskProducer`) plugs the type in where the product's own implementations go. Protocols and
///   classes from other images (`Swift.Hashable`, `Swift.Error`) say nothing either way.
///
/// Test code, whose uses do not count: a type whose name matches the patterns (itself, or one it
/// is nested in) unless it was itself found to be product code, an `XCTestCase` subclass, a type
/// of a test library's module (XCTest, Testing), or a type conforming to a test protocol (a test
/// library's protocol, a preview protocol, or one whose name matches the patterns). Found types
/// can make others product code in turn (a stored property of `GlobalStubBinaryTaskProducer`),
/// so the search repeats until nothing changes (at most once per matched type).
struct ProductUses {
    /// Each matched type the product uses, with how ("Module.Owner.field (stored property)").
    private(set) var uses: [String: [String]] = [:]

    /// `matched`: the reported types' full names. `isMatched`: whether a full name matches the
    /// patterns. `unmatchedName`: the matched component of a name without its pattern match
    /// (`MockFileSystem` → `FileSystem`).
    init(
        _ metadata: SwiftMetadata, matched: Set<String>, isMatched: (String) -> Bool, unmatchedName: (String) -> String?
    ) {
        let productProtocols = Set(
            metadata.protocols.map(\.name).filter { !Self.isTestProtocol($0, isMatched: isMatched) })
        let testProtocols = Set(metadata.conformances.map(\.protocolName)).filter {
            Self.isTestProtocol($0, isMatched: isMatched)
        }
        var testTypes = Set(metadata.conformances.filter { testProtocols.contains($0.protocolName) }.map(\.typeName))
        for type in metadata.types where type.superclass.map(XCTestCaseRule.testCaseNames.contains) == true {
            testTypes.insert(type.name)
        }
        let declaredClasses = Set(metadata.types.filter { $0.kind == .class }.map(\.name))

        // Stored properties first (the strongest evidence), counted once their owner is known
        // not to be test code; then conformances and superclasses.
        var evidence: [String: [(owner: String?, use: String)]] = [:]
        for field in metadata.fields where !field.isEnumCase {
            guard !testTypes.contains(field.ownerName), !Self.isInTestModule(field.ownerName) else { continue }
            let use =
                field.name.isEmpty
                ? "a stored property of \(field.ownerName)" : "\(field.ownerName).\(field.name) (stored property)"
            for type in Set(field.typeNames.compactMap { Self.owning($0, among: matched) })
            where Self.owning(field.ownerName, among: matched) != type {
                evidence[type, default: []].append((field.ownerName, use))
            }
        }

        func isSeam(_ name: String, of type: String) -> Bool {
            guard let rest = unmatchedName(type) else { return true }
            return rest.isEmpty || name.split(separator: ".").last.map { $0.contains(rest) } ?? true
        }
        for conformance in metadata.conformances where productProtocols.contains(conformance.protocolName) {
            let type = conformance.typeName
            guard matched.contains(type), !isSeam(conformance.protocolName, of: type) else { continue }
            evidence[type, default: []].append((nil, "conformance to \(conformance.protocolName)"))
        }
        for type in metadata.types where matched.contains(type.name) {
            guard let superclass = type.superclass, declaredClasses.contains(superclass), !isMatched(superclass),
                !testTypes.contains(superclass), !isSeam(superclass, of: type.name)
            else { continue }
            evidence[type.name, default: []].append((nil, "subclass of \(superclass)"))
        }

        var changed = true
        while changed {
            changed = false
            for type in matched where uses[type] == nil {
                let found = (evidence[type] ?? []).filter {
                    $0.owner.map { !isMatched($0) || isProductCode($0, matched: matched) } ?? true
                }
                guard !found.isEmpty else { continue }
                uses[type] = found.map(\.use)
                changed = true
            }
        }
    }

    /// Whether a matched name is, or is nested in, a matched type found to be product code.
    private func isProductCode(_ name: String, matched: Set<String>) -> Bool {
        Self.owning(name, among: matched).map { uses[$0] != nil } ?? false
    }

    /// The matched type that is `name` or that `name` is nested in.
    private static func owning(_ name: String, among matched: Set<String>) -> String? {
        for dot in name.indices where name[dot] == "." {
            let outer = String(name[..<dot])
            if matched.contains(outer) { return outer }
        }
        return matched.contains(name) ? name : nil
    }

    private static func isTestProtocol(_ name: String, isMatched: (String) -> Bool) -> Bool {
        isInTestModule(name) || PreviewProtocols.all.contains(name) || isMatched(name)
    }

    private static func isInTestModule(_ name: String) -> Bool {
        TestLibraryDependencyRule.testModules.contains(String(name.prefix { $0 != "." }))
    }
}
