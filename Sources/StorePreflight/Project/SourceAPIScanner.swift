import ScanEngine
import ShipcheckCore

/// Finds the required reason APIs and the purpose-string APIs of the tables in one source
/// file's code (`SourceTokens`): what the project-side checks know of a target before it is
/// built. Built once per scan; `scan` is called from every reading thread.
package struct SourceAPIScanner: Sendable {
    package enum Language: Sendable { case swift, cFamily }

    /// One use in a file: a required reason API (its index in `RequiredReasonAPIs.apis`) or a
    /// purpose-string requirement (its index in `PurposeStrings.requirements`), where it is
    /// (byte offset of the identifier) and how it is spelled there.
    package struct Use: Sendable, Hashable, Codable {
        package enum Subject: Sendable, Hashable, Codable {
            case requiredReason(Int)
            case purpose(Int)
        }

        package var subject: Subject
        package var offset: Int
        package var spelling: String
    }

    private struct Entry: Sendable {
        var pattern: SourcePattern
        var subject: Use.Subject
    }

    /// Identifier → the patterns keyed on it, per language.
    private let swift: [String: [Entry]]
    private let cFamily: [String: [Entry]]
    /// Per purpose row and language, how many patterns must all be present.
    private let purposePatternCounts: (swift: [Int], cFamily: [Int])
    private let longestIdentifier: Int
    /// What a release build sets: code in branches it never compiles is not looked at.
    private let flags: ReleaseBuildFlags

    /// `flags`: the configured release flags (`ReleaseBuildFlags(configuration)`), so the
    /// branches left out are those the source rules call DEBUG-only.
    package init(flags: ReleaseBuildFlags = ReleaseBuildFlags()) {
        self.flags = flags
        var swift: [String: [Entry]] = [:], cFamily: [String: [Entry]] = [:]
        for (index, api) in RequiredReasonAPIs.apis.enumerated() {
            for pattern in api.swift {
                swift[pattern.identifier, default: []].append(Entry(pattern: pattern, subject: .requiredReason(index)))
            }
            for pattern in api.objectiveC {
                cFamily[pattern.identifier, default: []].append(
                    Entry(pattern: pattern, subject: .requiredReason(index)))
            }
        }
        let rows = PurposeStrings.requirements
        for (index, row) in rows.enumerated() {
            for pattern in row.swift {
                swift[pattern.identifier, default: []].append(Entry(pattern: pattern, subject: .purpose(index)))
            }
            for pattern in row.objectiveC {
                cFamily[pattern.identifier, default: []].append(Entry(pattern: pattern, subject: .purpose(index)))
            }
        }
        self.swift = swift
        self.cFamily = cFamily
        purposePatternCounts = (rows.map { Set($0.swift).count }, rows.map { Set($0.objectiveC).count })
        longestIdentifier = (Array(swift.keys) + Array(cFamily.keys)).map(\.utf8.count).max() ?? 0
    }

    /// Every use of a required reason API (each occurrence) and of a purpose-string
    /// requirement (its first complete occurrence: every pattern of the row in the file, at the
    /// last of them to appear first), in file order.
    /// Code in branches a release build never compiles (`#if DEBUG`, a configured debug-only
    /// flag, the `#else` of a configured release flag) is left out.
    package func scan(_ bytes: borrowing ByteView, language: Language) -> [Use] {
        let table = language == .swift ? swift : cFamily
        let tokens = SourceTokens(bytes, language: language == .swift ? .swift : .cFamily, flags: flags).tokens
        func text(_ token: SourceTokens.Token) -> String {
            bytes.string(Int(token.start)..<Int(token.start + token.length))
        }
        func punctuation(_ index: Int) -> UInt8 { index >= 0 && index < tokens.count ? tokens[index].punctuation : 0 }
        func identifier(_ index: Int) -> String? {
            index >= 0 && index < tokens.count && tokens[index].isIdentifier ? text(tokens[index]) : nil
        }
        var uses: [Use] = []
        var purposeSeen: [Int: [SourcePattern: Int]] = [:]
        for (index, token) in tokens.enumerated() where token.isIdentifier && token.length <= longestIdentifier {
            guard let entries = table[text(token)] else { continue }
            for entry in entries
            where Self.matches(entry.pattern, at: index, punctuation: punctuation, identifier: identifier) {
                switch entry.subject {
                case .requiredReason:
                    uses.append(
                        Use(subject: entry.subject, offset: Int(token.start), spelling: entry.pattern.description))
                case .purpose(let row):
                    if purposeSeen[row, default: [:]][entry.pattern] == nil {
                        purposeSeen[row, default: [:]][entry.pattern] = Int(token.start)
                    }
                }
            }
        }
        let counts = language == .swift ? purposePatternCounts.swift : purposePatternCounts.cFamily
        for (row, seen) in purposeSeen where seen.count == counts[row] {
            let (pattern, offset) = seen.max { $0.value < $1.value }!
            uses.append(Use(subject: .purpose(row), offset: offset, spelling: pattern.description))
        }
        return uses.sorted { ($0.offset, $0.spelling) < ($1.offset, $1.spelling) }
    }

    /// Keywords after which a name is being declared, not used.
    private static let declaring: Set = [
        "func", "struct", "class", "enum", "protocol", "typealias", "var", "let", "case", "interface", "implementation"
    ]
    /// Modules through which a C function may be called qualified (`Darwin.stat(…)`).
    private static let cModules: Set = ["Darwin", "Glibc", "Foundation"]

    private static func matches(
        _ pattern: SourcePattern, at index: Int, punctuation: (Int) -> UInt8, identifier: (Int) -> String?
    ) -> Bool {
        let dot = UInt8(ascii: ".")
        let afterDot = punctuation(index - 1) == dot
        let declared = identifier(index - 1).map(declaring.contains) ?? false
        switch pattern {
        case .call:
            guard punctuation(index + 1) == UInt8(ascii: "("), !declared else { return false }
            // Not a member (`x.stat(`, `p->stat(`), unless the member of a C module.
            if afterDot { return identifier(index - 2).map(cModules.contains) ?? false }
            return !(punctuation(index - 1) == UInt8(ascii: ">") && punctuation(index - 2) == UInt8(ascii: "-"))
        case .member:
            return afterDot
        case .word:
            return !declared
        case .qualified(let type, _):
            return afterDot && identifier(index - 2) == type
        case .key:
            let before = punctuation(index - 2), after = punctuation(index + 1)
            return afterDot && (before == UInt8(ascii: "[") || before == UInt8(ascii: ","))
                && (after == UInt8(ascii: "]") || after == UInt8(ascii: ":") || after == UInt8(ascii: ","))
        }
    }
}
