import ScanEngine

/// The one suppression grammar, for every check that reports on a text file:
///
///     // shipcheck:ignore RULE[, RULE…] -- reason
///
/// written in a comment syntax the file type allows (`//` or `/* */` in Swift and C-family
/// files, `#` in shell, YAML, Ruby, Python…, `<!-- -->` in Markdown and XML; unknown types
/// take any of them). It silences a finding when it sits
///
/// - alone on the line directly above the finding,
/// - in a trailing comment on the finding's own (first) line, or
/// - for a finding about a declaration, anywhere in the comment block directly above it
///   (above its doc comment and attributes, or among them; a blank line ends the block).
///
/// The reason after `--` is required: a directive without one does not suppress, and the
/// finding says so, so every silenced finding of a release gate carries its justification
/// into review. (Conflict markers also accept the forms they took before this grammar — the
/// directive anywhere on the marker line or the line above, in any comment or none, without a
/// reason — as a deprecated spelling; see `decision(…, acceptsDeprecatedForms:)`.)
package struct Suppressions: Sendable, Hashable, Codable {
    package static let marker = "shipcheck:ignore"
    /// Appended to the message of a finding whose suppression comment lacks a reason.
    package static let missingReasonNote =
        " (the shipcheck:ignore comment above has no '-- reason', so it does not suppress)"

    /// One `shipcheck:ignore` in the file.
    package struct Directive: Sendable, Hashable, Codable {
        package enum Placement: Sendable, Hashable, Codable {
            /// A comment (in a syntax the file type allows) alone on its line.
            case ownLine
            /// A comment after code on the same line.
            case trailing
            /// Not in a comment this file type allows: only the deprecated conflict form.
            case bare
        }

        /// 1-based.
        package var line: Int
        package var placement: Placement
        package var rules: [String]
        package var hasReason: Bool

        /// Written the one way the grammar allows.
        package var isCurrentForm: Bool { placement != .bare && !rules.isEmpty && hasReason }
    }

    package enum Decision: Sendable, Hashable {
        case report
        case suppressed
        /// A directive names the rule but gives no reason: reported, with `missingReasonNote`.
        case missingReason
        /// Silenced by a deprecated form (conflict markers only): reported as a note to rewrite it.
        case suppressedByDeprecatedForm(line: Int)
    }

    package private(set) var directives: [Directive] = []

    /// The directives of a file's bytes; `path` decides which comment syntaxes count.
    package init(_ bytes: borrowing ByteView, path: String) {
        let marker = Array(Self.marker.utf8)
        let openers = CommentSyntax.openers(forPath: path)
        var lines = LineCursor()
        var from = 0
        while let hit = bytes.firstIndex(of: marker, from: from) {
            from = hit + marker.count
            let lineStart = lines.lineStart(containing: hit, in: bytes)
            let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n"), from: hit) ?? bytes.count
            directives.append(
                Self.directive(
                    before: bytes.string(lineStart..<hit), after: bytes.string(from..<lineEnd),
                    line: lines.line(of: hit, in: bytes), openers: openers))
        }
    }

    package init(_ bytes: [UInt8], path: String) {
        self = bytes.withByteView { Suppressions($0, path: path) }
    }

    package var isEmpty: Bool { directives.isEmpty }

    /// Whether a finding of `rule` on `line` is silenced. `aliases` are rule ids whose
    /// directives silence it too (`conflict-marker` covers remnants); `leadingLines` are the
    /// lines of a declaration's comment block and attributes, down to its first line of code.
    /// With `acceptsDeprecatedForms`, any directive naming the rule on the line or the line
    /// above silences it, whatever its comment and reason.
    package func decision(
        rule: String, aliases: [String] = [], line: Int, leadingLines: ClosedRange<Int>? = nil,
        acceptsDeprecatedForms: Bool = false
    ) -> Decision {
        guard !directives.isEmpty else { return .report }
        let names = [rule] + aliases
        func naming(_ directive: Directive) -> Bool { directive.rules.contains(where: names.contains) }
        var above = [line - 1]
        if let leadingLines { above += Array(leadingLines.lowerBound - 1..<leadingLines.upperBound) }
        var current: [Directive] = []
        for candidate in above {
            current += directives.filter { $0.line == candidate && $0.placement == .ownLine && naming($0) }
        }
        current += directives.filter { $0.line == line && $0.placement == .trailing && naming($0) }
        if let first = current.first {
            if first.hasReason { return .suppressed }
            if !acceptsDeprecatedForms { return .missingReason }
        }
        if acceptsDeprecatedForms,
            let old = directives.first(where: { ($0.line == line || $0.line == line - 1) && naming($0) })
        {
            return .suppressedByDeprecatedForm(line: old.line)
        }
        return .report
    }

    /// What the directives make of one finding of `rule`, by the rule's `suppression` policy:
    /// the one way every engine applies suppressions. `leadingLines`: as for `decision`.
    package func outcome(of finding: Finding, rule: any Rule.Type, leadingLines: ClosedRange<Int>? = nil)
        -> SuppressionOutcome
    {
        let policy = rule.suppression
        let decision = decision(
            rule: rule.id, aliases: policy.alsoSilencedBy, line: finding.location.line ?? 1, leadingLines: leadingLines,
            acceptsDeprecatedForms: policy.acceptsDeprecatedForms)
        switch decision {
        case .report:
            return .reported(finding)
        case .missingReason:
            var finding = finding
            finding.message += Self.missingReasonNote
            return .reported(finding)
        case .suppressed:
            return .suppressed
        case .suppressedByDeprecatedForm(let line):
            return .suppressedByDeprecatedForm(line: line)
        }
    }

    /// Parses what surrounds one marker: `before` is its line up to the marker, `after` the rest.
    static func directive(before: String, after: String, line: Int, openers: [String]) -> Directive {
        var lead = Substring(before)
        while let last = lead.last, last == " " || last == "\t" { lead = lead.dropLast() }
        var placement = Directive.Placement.bare
        for opener in openers {
            var remaining = lead
            guard remaining.hasSuffix(opener) else { continue }
            remaining = remaining.dropLast(opener.count)
            // `///` and `////` open a comment as `//` does.
            if opener == "//" { while remaining.hasSuffix("/") { remaining = remaining.dropLast() } }
            placement = remaining.allSatisfy { $0 == " " || $0 == "\t" } ? .ownLine : .trailing
            break
        }
        var body = Substring(after)
        for closer in ["*/", "-->"] {
            if let end = body.range(of: closer) { body = body[..<end.lowerBound] }
        }
        var reason: Substring = ""
        if let separator = body.range(of: "--") {
            reason = body[separator.upperBound...]
            body = body[..<separator.lowerBound]
        }
        let rules = body.split { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" }.map(String.init)
            .filter { $0.utf8.allSatisfy { $0.isASCIILetter || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") } }
        return Directive(
            line: line, placement: placement, rules: rules,
            hasReason: reason.contains { !$0.isWhitespace })
    }
}

/// How a rule's findings meet `shipcheck:ignore` directives; a rule declares its own
/// (`Rule.suppression`), the engines apply it through `Suppressions.outcome(of:rule:)`.
package struct SuppressionPolicy: Sendable {
    /// Rule ids whose directives silence this rule's findings too (a directive for a complete
    /// conflict block covers a remnant on the same line).
    package var alsoSilencedBy: [String]
    /// Whether the forms from before the grammar (any directive naming the rule on the line or
    /// the line above, in any comment or none, without a reason) still silence, as deprecated.
    package var acceptsDeprecatedForms: Bool

    package init(alsoSilencedBy: [String] = [], acceptsDeprecatedForms: Bool = false) {
        self.alsoSilencedBy = alsoSilencedBy
        self.acceptsDeprecatedForms = acceptsDeprecatedForms
    }
}

/// What became of one finding under a file's directives.
package enum SuppressionOutcome: Sendable, Hashable {
    /// Reported: as it was, or with `Suppressions.missingReasonNote` when a directive lacks its
    /// reason.
    case reported(Finding)
    case suppressed
    /// Silenced by a deprecated form on `line`: the caller tells the user to rewrite it.
    case suppressedByDeprecatedForm(line: Int)
}

/// Which comment openers a file type allows, by its name.
package enum CommentSyntax {
    static let slashes = ["//", "/*"]
    static let hash = ["#"]
    static let markup = ["<!--"]
    static let any = ["//", "/*", "#", "<!--", "--", ";"]

    static let byExtension: [String: [String]] = {
        var table: [String: [String]] = [:]
        for name in [
            "swift", "c", "h", "m", "mm", "cc", "cpp", "cxx", "hpp", "hh", "js", "mjs", "ts", "tsx", "jsx", "java",
            "kt", "kts",
            "go", "rs", "cs", "scala", "dart", "gradle", "groovy", "proto", "metal", "xcconfig", "pbxproj", "json5",
            "css", "scss"
        ] {
            table[name] = slashes
        }
        for name in [
            "sh", "bash", "zsh", "fish", "py", "rb", "pl", "pm", "r", "yml", "yaml", "toml", "conf", "cfg", "ini", "mk",
            "cmake", "ps1", "tf", "gitignore", "gitattributes", "podspec", "gemfile", "dockerfile", "makefile",
            "rakefile", "properties"
        ] {
            table[name] = hash
        }
        for name in [
            "md", "markdown", "html", "htm", "xml", "plist", "storyboard", "xib", "svg", "xcscheme", "entitlements"
        ] {
            table[name] = markup
        }
        table["strings"] = slashes  // Localizable.strings
        for name in ["sql", "lua", "hs"] { table[name] = ["--"] }
        return table
    }()

    /// The openers for the file at `path`: by extension, or by the whole name for files
    /// without one (`Makefile`, `.gitignore`); any of the common ones when the type is unknown.
    package static func openers(forPath path: String) -> [String] {
        let name = (path.split(separator: "/").last.map(String.init) ?? path).lowercased()
        let key = name.split(separator: ".", omittingEmptySubsequences: true).last.map(String.init) ?? name
        return byExtension[key] ?? any
    }
}
