/// The moment a run must stop by: checked between files, between lines and, through the
/// engine's progress callback, during a long regular-expression match.
package struct Deadline: Sendable {
    package let instant: ContinuousClock.Instant?

    /// `seconds` from now; nil or infinite: never.
    package init(seconds: Double?) {
        if let seconds, seconds.isFinite {
            instant = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        } else {
            instant = nil
        }
    }

    /// At `instant`; nil: never.
    package init(at instant: ContinuousClock.Instant?) {
        self.instant = instant
    }

    package var hasPassed: Bool {
        guard let instant else { return false }
        return ContinuousClock.now >= instant
    }

    /// `hasPassed` with the clock read at every 64th `step` of a loop only (steps counted from
    /// 0: the 64th is 63): a loop that asked per match would spend more on reading the clock
    /// than on many of its matches (docs/performance.md, "The deadline's clock every 64
    /// steps"). Callers ask `hasPassed` before each file.
    package func hasPassed(atStep step: Int) -> Bool {
        step & 63 == 63 && hasPassed
    }
}
