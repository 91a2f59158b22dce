import ScanEngine

/// The language of a conditional-compilation directive's condition.
package enum ConditionDialect: Sendable {
    /// Swift's `#if` / `#elseif`: flags, `!`, `&&`, `||`, parentheses, `true` / `false` and
    /// platform conditions (`os(iOS)`, `canImport(UIKit)`, `swift(>=6)`).
    case swift
    /// The C preprocessor's `#if` / `#elif`: also `defined(NAME)` / `defined NAME`, integer
    /// literals, and comparisons or arithmetic (`__IPHONE_OS_VERSION_MIN_REQUIRED >= 170000`).
    case c
}

extension ReleaseBuildFlags {
    /// Bytes of a directive's condition that are parsed.
    private static let maximumDirectiveLength = 1024

    /// The condition of a directive, from the text after its keyword (`DEBUG || os(iOS)`,
    /// `defined(DEBUG) && DEBUG`), comments and line continuations allowed. Function-like
    /// conditions (`os(iOS)`, `__has_include(<UIKit/UIKit.h>)`) and comparisons are unknowns
    /// named by their text; text that does not parse is one unknown, so the code under it counts
    /// as compiled.
    package func condition(ofDirective text: some StringProtocol, dialect: ConditionDialect) -> ReleaseCondition {
        // Longer than any condition written by hand: one unknown, not thousands of tokens.
        guard text.utf8.count <= Self.maximumDirectiveLength else { return .atom(String(text)) }
        var parser = DirectiveConditionParser(Array(text.utf8), dialect: dialect, flags: self)
        return parser.parse()
    }
}

/// Recursive descent over a directive condition's tokens: `||` below `&&` below `!`.
private struct DirectiveConditionParser {
    enum Kind: Equatable { case word, open, close, not, and, or, other }

    struct Token {
        var kind: Kind
        var text: String
        /// Whitespace (or a comment) came before it.
        var spaced: Bool
    }

    private let tokens: [Token]
    private let dialect: ConditionDialect
    private let flags: ReleaseBuildFlags
    private var position = 0
    /// Parentheses and `!` open around the token being read: past `maximumNesting` the text is
    /// one unknown, so the recursion stays shallow on any thread's stack.
    private var nesting = 0
    private static let maximumNesting = 64

    init(_ bytes: [UInt8], dialect: ConditionDialect, flags: ReleaseBuildFlags) {
        tokens = Self.tokens(of: bytes)
        self.dialect = dialect
        self.flags = flags
    }

    mutating func parse() -> ReleaseCondition {
        guard let condition = disjunction(), position == tokens.count else {
            return .atom(Self.text(of: tokens[...]))
        }
        return condition
    }

    private var next: Kind? { position < tokens.count ? tokens[position].kind : nil }

    private mutating func disjunction() -> ReleaseCondition? {
        joined(by: .or, as: ReleaseCondition.or) { $0.conjunction() }
    }

    private mutating func conjunction() -> ReleaseCondition? {
        joined(by: .and, as: ReleaseCondition.and) { $0.relation() }
    }

    /// Operands separated by `separator`, grouped from the left.
    private mutating func joined(
        by separator: Kind, as join: (ReleaseCondition, ReleaseCondition) -> ReleaseCondition,
        operand: (inout Self) -> ReleaseCondition?
    ) -> ReleaseCondition? {
        guard var result = operand(&self) else { return nil }
        while next == separator {
            position += 1
            guard let rhs = operand(&self) else { return nil }
            result = join(result, rhs)
        }
        return result
    }

    /// An operand, or a comparison or arithmetic on operands (C), which is one unknown.
    private mutating func relation() -> ReleaseCondition? {
        let start = position
        guard let operand = unary() else { return nil }
        guard next == .other else { return operand }
        var depth = 0
        while let kind = next, depth > 0 || (kind != .and && kind != .or && kind != .close) {
            if kind == .open { depth += 1 }
            if kind == .close { depth -= 1 }
            position += 1
        }
        return .atom(Self.text(of: tokens[start..<position]))
    }

    private mutating func unary() -> ReleaseCondition? {
        guard next == .not else { return primary() }
        position += 1
        return nested { $0.unary().map { .not($0) } }
    }

    private mutating func nested(_ parse: (inout Self) -> ReleaseCondition?) -> ReleaseCondition? {
        guard nesting < Self.maximumNesting else { return nil }
        nesting += 1
        defer { nesting -= 1 }
        return parse(&self)
    }

    private mutating func primary() -> ReleaseCondition? {
        guard position < tokens.count else { return nil }
        let token = tokens[position]
        position += 1
        switch token.kind {
        case .open:
            guard let inner = nested({ $0.disjunction() }), next == .close else { return nil }
            position += 1
            return inner
        case .word where dialect == .c && token.text == "defined":
            let parenthesised = next == .open
            if parenthesised { position += 1 }
            guard next == .word else { return nil }
            let name = tokens[position].text
            position += 1
            if parenthesised {
                guard next == .close else { return nil }
                position += 1
            }
            return flags.defined(name)
        case .word where next == .open:
            // A platform condition or function-like macro: `os(iOS)`, `__has_feature(modules)`.
            let start = position - 1
            var depth = 0
            repeat {
                if tokens[position].kind == .open { depth += 1 }
                if tokens[position].kind == .close { depth -= 1 }
                position += 1
            } while depth > 0 && position < tokens.count
            guard depth == 0 else { return nil }
            return .atom(Self.text(of: tokens[start..<position]))
        case .word where dialect == .swift && (token.text == "true" || token.text == "false"):
            return .constant(token.text == "true")
        case .word where dialect == .c && token.text.first?.isNumber == true:
            return Self.integerIsNonzero(token.text).map { .constant($0) } ?? .atom(token.text)
        case .word:
            return flags.flag(token.text)
        default:
            return nil
        }
    }

    /// Whether a C integer literal (`0`, `1`, `0x10`, `1UL`) is not zero; nil when it is not one.
    private static func integerIsNonzero(_ literal: String) -> Bool? {
        var digits = Substring(literal)
        while let last = digits.last, "uUlL".contains(last) { digits = digits.dropLast() }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
        return digits.contains { $0 != "0" }
    }

    /// The tokens' text with spacing normalised: one space where the source had some, none
    /// after `(` or `!` and none before `)` or `,` (`os( iOS )` and `os(iOS)` are one unknown).
    private static func text(of tokens: ArraySlice<Token>) -> String {
        var text = ""
        var previous: Kind?
        for token in tokens {
            let glued = previous == .open || previous == .not || token.kind == .close || token.text == ","
            if previous != nil, token.spaced, !glued { text += " " }
            text += token.text
            previous = token.kind
        }
        return text
    }

    /// Identifier bytes, and `$` (Swift's `$Feature` conditions).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        ByteSearch.isIdentifierByte(byte) || byte == UInt8(ascii: "$")
    }

    private static let twoByteOperators: Set<[UInt8]> = Set(["==", "!=", "<=", ">=", "<<", ">>"].map { Array($0.utf8) })

    private static func tokens(of bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        var spaced = false
        func add(_ kind: Kind, _ length: Int) {
            let end = min(index + length, bytes.count)
            tokens.append(Token(kind: kind, text: String(decoding: bytes[index..<end], as: UTF8.self), spaced: spaced))
            index = end
            spaced = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            let following: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\\"):
                // A backslash here can only continue the directive's line.
                spaced = true
                index += 1
            case UInt8(ascii: "/") where following == UInt8(ascii: "/"):
                return tokens
            case UInt8(ascii: "/") where following == UInt8(ascii: "*"):
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) {
                    end += 1
                }
                index = end + 2
                spaced = true
            case _ where isWordByte(byte):
                var end = index
                while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
                add(.word, end - index)
            case UInt8(ascii: "("): add(.open, 1)
            case UInt8(ascii: ")"): add(.close, 1)
            case UInt8(ascii: "&") where following == UInt8(ascii: "&"): add(.and, 2)
            case UInt8(ascii: "|") where following == UInt8(ascii: "|"): add(.or, 2)
            case UInt8(ascii: "!") where following != UInt8(ascii: "="): add(.not, 1)
            case UInt8(ascii: "\""):
                // `__has_include("Header.h")`: the literal is one token.
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                add(.other, end + 1 - index)
            default:
                add(.other, twoByteOperators.contains([byte, following]) ? 2 : 1)
            }
        }
        return tokens
    }
}
