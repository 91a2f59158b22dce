import ShipcheckCore
import SwiftSyntax

/// A Swift file the source scanner reads, and why it is development-only (nil: it is not).
/// Other checks that reason about release builds (the audit's archive-breaker prediction)
/// take the same files and the same Development Assets from here.
public struct SwiftSource: Sendable {
    public var file: ScannedFile
    /// Which setting or config glob makes the file development-only, or nil.
    public var developmentReason: String?
}

/// Every Swift file under a root, and the problems met while listing them.
public struct SwiftSourceSet: Sendable {
    public var sources: [SwiftSource]
    public var inputErrors: [InputError]
}

/// Where the previews of a parsed file are.
public enum SwiftPreviews {
    /// The `#Preview` expansions and preview-provider declarations of `tree`.
    public static func nodes(in tree: SourceFileSyntax) -> [Syntax] {
        PreviewFinder.find(in: tree).map(\.node)
    }
}

extension SwiftSource {
    /// The file's text, safe to hand to the parser: or the input error naming the first line
    /// that is not UTF-8, or where `#if` or `[` nesting goes deeper than the parser copes with
    /// (see `DirectiveNesting`). Every check reading Swift sources reports the
    /// same error, so a combined run can merge them.
    public static func text(of bytes: [UInt8], path: String) throws(InputError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(path: path, line: SourceFileAnalyzer.firstInvalidUTF8Line(bytes), message: "not valid UTF-8; not scanned")
        }
        if let line = DirectiveNesting.lineExceedingMaximum(in: bytes) {
            throw InputError(path: path, line: line, message: "#if nesting deeper than \(DirectiveNesting.maximum) levels; not scanned")
        }
        if let line = DirectiveNesting.lineExceedingMaximumBrackets(in: bytes) {
            throw InputError(path: path, line: line, message: "[ nesting deeper than \(DirectiveNesting.maximumBrackets) levels; not scanned")
        }
        return text
    }
}
