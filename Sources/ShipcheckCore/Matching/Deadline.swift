/// The moment a run must stop by: checked between files, between lines and, through the
/// engine's progress callback, during a long regular-expression match.
public struct Deadline: Sendable {
    public let instant: ContinuousClock.Instant?

    /// `seconds` from now; nil or infinite: never.
    public init(seconds: Double?) {
        if let seconds, seconds.isFinite {
            instant = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        } else {
            instant = nil
        }
    }

    /// At `instant`; nil: never.
    public init(at instant: ContinuousClock.Instant?) {
        self.instant = instant
    }

    public var hasPassed: Bool {
        guard let instant else { return false }
        return ContinuousClock.now >= instant
    }
}
