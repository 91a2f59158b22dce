/// A store requirement that rises on announced days, per platform or form factor: the App
/// Store's oldest SDK, Google Play's oldest target API level. Each row is one announcement's
/// step for one subject; a store applies a step from its first day on, and warns about the next
/// one before it comes, so a check asks for both.
package struct DatedFloors<Subject: Equatable & Sendable, Value: Sendable>: Sendable {
    /// From `since` on, uploads for `subject` below `value` are refused.
    package struct Floor: Sendable {
        package var subject: Subject
        /// `yyyy-MM-dd`, the first day uploads below the floor are refused.
        package var since: String
        package var value: Value
    }

    /// Every step of every subject, in the order of their days.
    package let rows: [Floor]

    /// `announcements`: each announcement's day and its floor for the subjects it names.
    package init(_ announcements: [(since: String, floors: [(Subject, Value)])]) {
        rows = announcements.sorted { $0.since < $1.since }.flatMap { announcement in
            announcement.floors.map { Floor(subject: $0.0, since: announcement.since, value: $0.1) }
        }
    }

    /// The floor in force on `day` for `subject` (the last whose first day is `day` or before),
    /// and the next one announced after it; nil where there is none.
    package func floors(for subject: Subject, on day: String) -> (current: Floor?, next: Floor?) {
        let steps = rows.filter { $0.subject == subject }
        return (steps.last { $0.since <= day }, steps.first { $0.since > day })
    }

    /// The floor a release misses on `day` (`isBelow`: whether its value is below a floor's): the
    /// one in force (`inForce`), else the next one announced, which a store warns about before
    /// its day; nil when it meets both.
    package func missed(for subject: Subject, on day: String, by isBelow: (Value) -> Bool) -> (
        floor: Floor, inForce: Bool
    )? {
        let (current, next) = floors(for: subject, on: day)
        if let current, isBelow(current.value) { return (current, true) }
        if let next, isBelow(next.value) { return (next, false) }
        return nil
    }
}
