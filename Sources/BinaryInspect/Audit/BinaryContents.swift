import ScanEngine
import ShipcheckCore

/// Everything the leak rules look at in one image (a file, an archive member or a universal
/// slice), already decoded: the rules never touch format structures, so they run on ELF and
/// Mach-O alike, and on small synthetic inputs (`BinaryContents(example:)`, what the rule
/// examples use).
package struct BinaryContents: Sendable {
    package var origin: ImageOrigin
    package var metadata = SwiftMetadata()
    /// Defined symbols of the full symbol table (or the dynamic one when stripped), demangled
    /// where they are Swift.
    package var symbols: [NamedSymbol] = []
    /// Whether the full symbol table was present (not stripped): sizes are then known.
    package var hasSymbolTable = false
    package var libraries: [LinkedLibrary] = []
    package var strings: [FoundString] = []
    /// What the format says about the build (build-id, toolchain, UUID, platform, signature…).
    package var buildFacts: [BuildFact] = []

    package init(origin: ImageOrigin) {
        self.origin = origin
    }

    package init(path: String, member: String? = nil) {
        self.init(origin: ImageOrigin(path: path, member: member))
    }

    package var path: String { origin.path }
    package var member: String? { origin.member }

    /// A symbol as the rules see it.
    package struct NamedSymbol: Sendable, Hashable {
        package var mangled: String
        package var demangled: String?
        package var size: UInt64
        package var section: String
        package var offset: UInt64

        package init(mangled: String, demangled: String?, size: UInt64, section: String, offset: UInt64) {
            self.mangled = mangled
            self.demangled = demangled
            self.size = size
            self.section = section
            self.offset = offset
        }
    }

    /// A printable string found in read-only data.
    package struct FoundString: Sendable, Hashable {
        package var text: String
        package var section: String
        package var offset: UInt64

        package init(text: String, section: String, offset: UInt64) {
            self.text = text
            self.section = section
            self.offset = offset
        }
    }

    /// Bytes of code and data that belong to a type: the sizes of the symbols whose demangled
    /// names are the type or its members. Nil without a symbol table (stripped binaries keep
    /// only the metadata) or when no symbol names the type (its local symbols were stripped).
    package func size(ofType name: String) -> UInt64? {
        guard hasSymbolTable else { return nil }
        var total: UInt64?
        for symbol in symbols {
            guard let demangled = symbol.demangled, Self.mentions(demangled, name) else { continue }
            // Sizes come from the file: a hostile one must not overflow the sum.
            let (sum, overflow) = (total ?? 0).addingReportingOverflow(symbol.size)
            total = overflow ? UInt64.max : sum
        }
        return total
    }

    /// Whether `text` contains `name` as a whole dotted name (not as a prefix of a longer identifier).
    /// A byte search: the rules ask it for every symbol of every type they report.
    static func mentions(_ text: String, _ name: String) -> Bool {
        let needle = Array(name.utf8)
        return text.withByteView { haystack in
            // Both are valid UTF-8, so a match starts and ends on scalar boundaries.
            var start = 0
            while let found = haystack.firstIndex(of: needle, from: start) {
                let end = found + needle.count
                if end == haystack.count || !continuesIdentifier(text, atUTF8Offset: end, byte: haystack[end]) {
                    return true
                }
                start = end
            }
            return false
        }
    }

    /// Whether the character at `offset` would continue an identifier (a letter, a digit, `_`).
    private static func continuesIdentifier(_ text: String, atUTF8Offset offset: Int, byte: UInt8) -> Bool {
        if byte < 0x80 {
            return byte.isASCIILetter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_")
        }
        let next = text[text.utf8.index(text.utf8.startIndex, offsetBy: offset)]
        return next.isLetter || next.isNumber
    }

    /// The finding, located in this image.
    func finding(
        _ rule: RuleDescription, _ severity: Severity, message: String, section: String?, symbol: String?,
        offset: UInt64?, fix: String, identity: String
    ) -> Finding {
        // A universal file's slices carry the same records: the slice keeps their identities apart.
        Finding(
            ruleID: rule.id, severity: severity, message: message,
            location: .binary(
                BinaryLocation(
                    path: origin.path, member: origin.member, architecture: origin.architecture,
                    section: section, symbol: symbol, offset: offset)),
            snippet: symbol, fixHint: fix, identity: origin.architecture.map { "[\($0)] \(identity)" } ?? identity)
    }

    /// One finding for many strings of one kind (one fact, one finding): at the first string,
    /// with up to three as the snippet and every one as a related location.
    func finding(
        _ rule: RuleDescription, _ severity: Severity, message: String, strings: [FoundString], fix: String,
        identity: String
    ) -> Finding {
        var finding = self.finding(
            rule, severity, message: message, section: strings[0].section, symbol: nil,
            offset: strings[0].offset, fix: fix, identity: identity)
        finding.snippet = strings.prefix(Self.examplesShown).map { Self.shown($0.text) }.joined(separator: "\n")
        if strings.count > 1 {
            finding.related = strings.map { string in
                RelatedLocation(
                    location: .binary(
                        BinaryLocation(
                            path: origin.path, member: origin.member, architecture: origin.architecture,
                            section: string.section, offset: string.offset)),
                    message: "\"\(Self.shown(string.text))\"")
            }
        }
        return finding
    }

    /// How many examples a grouped finding's message and snippet show.
    static let examplesShown = 3

    /// `"a", "b", "c"`: the first few of many, quoted, for a grouped finding's message.
    static func examples(_ texts: some Sequence<some StringProtocol>) -> String {
        texts.prefix(examplesShown).map { "\"\(shown(String($0)))\"" }.joined(separator: ", ")
    }

    /// A string as a message shows it: long ones cut to 120 characters.
    static func shown(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(117)) + "..." : text
    }

    /// "1234 bytes" / "size unknown (stripped)": how a message states the cost.
    static func describeSize(_ size: UInt64?) -> String {
        guard let size else { return "size unknown: symbol table stripped, metadata only" }
        return "\(size) bytes of code and data"
    }
}
