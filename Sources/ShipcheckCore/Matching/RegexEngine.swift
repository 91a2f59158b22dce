import Foundation

/// The regular-expression engine behind `Matcher`: ICU, through NSRegularExpression (the
/// engine of Xcode's Find navigator). This file is the only place that names it; replacing
/// the engine means replacing this type.
///
/// ICU rather than Swift `Regex`: on this toolchain a Swift `Regex` match ignores task
/// cancellation, so a catastrophic backtracking pattern could not be stopped, while ICU calls
/// back during long matches (`.reportProgress`) and lets the caller stop it — that is what
/// makes the `Deadline` bound a run.
struct RegexEngine: @unchecked Sendable {  // NSRegularExpression is immutable and thread-safe.
    private let expression: NSRegularExpression

    init(_ pattern: MatchPattern, origin: String?) throws(PatternError) {
        let source = pattern.kind == .regex ? pattern.text : NSRegularExpression.escapedPattern(for: pattern.text)
        // Whole word as ripgrep's -w means it: the match is not touching a word character,
        // whatever the pattern's own first and last characters are.
        let wrapped = pattern.wholeWord ? "(?<![\\p{L}\\p{N}_])(?:\(source))(?![\\p{L}\\p{N}_])" : source
        do {
            expression = try NSRegularExpression(pattern: wrapped, options: pattern.caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            let place = origin.map { " in \($0)" } ?? ""
            throw PatternError(message: "invalid regular expression '\(pattern.text)'\(place) (\(Matcher.syntaxHint))")
        }
    }

    /// Matches in one line, as UTF-8 byte ranges within the line; stops (and says so) when
    /// `deadline` passes during a long match. Empty matches mark nothing to show and are dropped.
    func matches(inLine bytes: UnsafeRawBufferPointer, deadline: Deadline) -> (ranges: [Range<Int>], cutShort: Bool) {
        let text = String(decoding: bytes, as: UTF8.self)
        let utf16 = text.utf16
        let ascii = utf16.count == bytes.count
        var ranges: [Range<Int>] = []
        var cutShort = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: utf16.count)) { result, _, stop in
            guard let result else {
                if deadline.hasPassed {
                    cutShort = true
                    stop.pointee = true
                }
                return
            }
            let range = result.range
            guard range.length > 0 else { return }
            if ascii {
                ranges.append(range.location..<(range.location + range.length))
            } else {
                let start = utf16.index(utf16.startIndex, offsetBy: range.location)
                let end = utf16.index(start, offsetBy: range.length)
                ranges.append(text.utf8.distance(from: text.startIndex, to: start)..<text.utf8.distance(from: text.startIndex, to: end))
            }
        }
        return (ranges, cutShort)
    }
}
