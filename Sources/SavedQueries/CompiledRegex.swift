import Foundation

/// Why a pattern cannot be used, as one line.
public struct PatternError: Error, Sendable {
    public var message: String
}

/// A query's regular expression, compiled once and shared by every worker.
///
/// NSRegularExpression (ICU, the engine behind Xcode's Find navigator) rather than Swift
/// `Regex`: on this toolchain a Swift `Regex` match ignores task cancellation, so a
/// catastrophic backtracking pattern could not be stopped, while ICU calls back during long
/// matches (`.reportProgress`) and lets the caller stop it — that is what bounds a run.
struct CompiledRegex: @unchecked Sendable {  // NSRegularExpression is immutable and thread-safe.
    let expression: NSRegularExpression

    init(_ query: SavedQuery) throws(PatternError) {
        let source = query.kind == .regex ? query.pattern : NSRegularExpression.escapedPattern(for: query.pattern)
        // Whole word as ripgrep's -w means it: the match is not touching a word character,
        // whatever the pattern's own first and last characters are.
        let pattern = query.wholeWord ? "(?<![\\p{L}\\p{N}_])(?:\(source))(?![\\p{L}\\p{N}_])" : source
        do {
            expression = try NSRegularExpression(pattern: pattern, options: query.caseSensitive ? [] : [.caseInsensitive])
        } catch {
            // Compile the bare pattern too, so a broken pattern is not blamed on our wrapping.
            throw PatternError(message: "invalid regular expression '\(query.pattern)' in query '\(query.name)' (ICU syntax: escape ( ) [ ] { } . * + ? ^ $ | \\ to match them literally)")
        }
    }

    /// Matches of the expression in one line, as UTF-8 byte ranges within the line; stops
    /// (and says so) when `deadline` passes during a long match.
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
            guard range.length > 0 else { return }  // empty matches mark nothing to show
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

/// The moment a run must stop by.
public struct Deadline: Sendable {
    let instant: ContinuousClock.Instant?

    /// `seconds` from now; nil or infinite: never.
    public init(seconds: Double?) {
        if let seconds, seconds.isFinite {
            instant = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        } else {
            instant = nil
        }
    }

    var hasPassed: Bool {
        guard let instant else { return false }
        return ContinuousClock.now >= instant
    }
}
