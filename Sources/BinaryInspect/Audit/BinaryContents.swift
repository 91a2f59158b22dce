import ShipcheckCore

/// Everything the leak rules look at in one ELF image (a file, or one archive member), already
/// decoded: the rules never touch ELF structures, so they can also run on small synthetic
/// inputs (`BinaryContents(example:)`, what the rule examples use).
public struct BinaryContents: Sendable {
    public var path: String
    public var member: String?
    public var metadata = SwiftMetadata()
    /// Defined symbols of `.symtab` (or `.dynsym` when stripped), demangled where they are Swift.
    public var symbols: [NamedSymbol] = []
    /// Whether `.symtab` was present (not stripped): sizes are then exact.
    public var hasSymbolTable = false
    public var neededLibraries: [String] = []
    public var autolinkEntries: [String] = []
    public var strings: [FoundString] = []
    /// `.comment` lines: compiler and linker identification.
    public var comments: [String] = []
    public var buildID: String?
    /// `.debug_*` sections and their sizes.
    public var debugSections: [(name: String, size: UInt64)] = []

    public init(path: String, member: String? = nil) {
        self.path = path
        self.member = member
    }

    /// A symbol as the rules see it.
    public struct NamedSymbol: Sendable, Hashable {
        public var mangled: String
        public var demangled: String?
        public var size: UInt64
        public var section: String
        public var offset: UInt64

        public init(mangled: String, demangled: String?, size: UInt64, section: String, offset: UInt64) {
            self.mangled = mangled
            self.demangled = demangled
            self.size = size
            self.section = section
            self.offset = offset
        }
    }

    /// A printable string found in read-only data.
    public struct FoundString: Sendable, Hashable {
        public var text: String
        public var section: String
        public var offset: UInt64

        public init(text: String, section: String, offset: UInt64) {
            self.text = text
            self.section = section
            self.offset = offset
        }
    }

    /// Bytes of code and data that belong to a type: the sizes of the symbols whose demangled
    /// names are the type or its members. Nil without a symbol table (stripped binaries keep
    /// only the metadata).
    public func size(ofType name: String) -> UInt64? {
        guard hasSymbolTable else { return nil }
        var total: UInt64 = 0
        for symbol in symbols {
            guard let demangled = symbol.demangled, Self.mentions(demangled, name) else { continue }
            total += symbol.size
        }
        return total
    }

    /// Whether `text` contains `name` as a whole dotted name (not as a prefix of a longer identifier).
    static func mentions(_ text: String, _ name: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: name, range: searchRange) {
            let after = found.upperBound
            if after == text.endIndex || !(text[after].isLetter || text[after].isNumber || text[after] == "_") { return true }
            searchRange = after..<text.endIndex
        }
        return false
    }

    /// The symbol whose demangled name is a descriptor of `entity` (for locating findings in
    /// unstripped files), e.g. the conformance descriptor of `T : P`.
    func symbol(demangledAs demangled: String) -> NamedSymbol? {
        symbols.first { $0.demangled == demangled }
    }

    /// The finding, located in this image.
    func finding(
        _ rule: RuleDescription, _ severity: Severity, message: String, section: String?, symbol: String?,
        offset: UInt64?, fix: String, identity: String
    ) -> Finding {
        Finding(
            ruleID: rule.id, severity: severity, message: message,
            location: .binary(BinaryLocation(path: path, member: member, section: section, symbol: symbol, offset: offset)),
            snippet: symbol, fixHint: fix, identity: identity)
    }

    /// "1234 bytes" / "size unknown (stripped)": how a message states the cost.
    static func describeSize(_ size: UInt64?) -> String {
        guard let size else { return "size unknown: symbol table stripped, metadata only" }
        return "\(size) bytes of code and data"
    }
}
