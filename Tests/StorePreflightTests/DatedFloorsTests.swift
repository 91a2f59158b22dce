import StorePreflight
import Testing

/// Which step of a rising store requirement is in force on a day, and which is announced next.
@Suite struct DatedFloorsTests {
    enum Platform { case phone, watch, desktop }

    /// Listed out of order: the table orders its announcements by day.
    static let floors = DatedFloors<Platform, Int>([
        ("2025-04-24", [(.phone, 18), (.watch, 11)]),
        ("2024-04-29", [(.phone, 17)]),
        ("2026-04-28", [(.phone, 26)])
    ])

    static func days(for platform: Platform, on day: String) -> (current: String?, next: String?) {
        let (current, next) = floors.floors(for: platform, on: day)
        return (current.map { "\($0.since) \($0.value)" }, next.map { "\($0.since) \($0.value)" })
    }

    @Test func beforeTheFirstDayNoFloorIsInForceAndTheFirstIsNext() {
        #expect(Self.days(for: .phone, on: "2024-04-28") == (nil, "2024-04-29 17"))
    }

    @Test func aFloorIsInForceFromItsFirstDayOn() {
        #expect(Self.days(for: .phone, on: "2025-04-23") == ("2024-04-29 17", "2025-04-24 18"))
        #expect(Self.days(for: .phone, on: "2025-04-24") == ("2025-04-24 18", "2026-04-28 26"))
        #expect(Self.days(for: .phone, on: "2024-04-29") == ("2024-04-29 17", "2025-04-24 18"))
    }

    @Test func afterTheLastDayTheLastFloorHoldsAndNoneIsNext() {
        #expect(Self.days(for: .phone, on: "2026-04-28") == ("2026-04-28 26", nil))
        #expect(Self.days(for: .phone, on: "2030-01-01") == ("2026-04-28 26", nil))
    }

    /// An announcement that leaves a platform out raises no floor for it.
    @Test func eachPlatformHasOnlyItsOwnSteps() {
        #expect(Self.days(for: .watch, on: "2026-06-01") == ("2025-04-24 11", nil))
        #expect(Self.days(for: .watch, on: "2024-06-01") == (nil, "2025-04-24 11"))
        #expect(Self.days(for: .desktop, on: "2026-06-01") == (nil, nil))
    }

    /// Below the floor in force: that one; else below the next one announced: that one, not in
    /// force yet; at or above both: none.
    @Test(arguments: [
        (16, "2025-01-01", "2024-04-29 17 in force"), (17, "2025-06-01", "2025-04-24 18 in force"),
        (18, "2025-06-01", "2026-04-28 26 announced"), (26, "2025-06-01", nil),
        (16, "2024-01-01", "2024-04-29 17 announced"), (26, "2027-01-01", nil),
        (25, "2027-01-01", "2026-04-28 26 in force")
    ])
    func theFloorAValueMisses(_ value: Int, _ day: String, _ expected: String?) {
        let missed = Self.floors.missed(for: .phone, on: day, by: { value < $0 })
        #expect(
            missed.map { "\($0.floor.since) \($0.floor.value) \($0.inForce ? "in force" : "announced")" } == expected)
    }

    @Test func rowsAreInTheOrderOfTheirDays() {
        #expect(Self.floors.rows.map(\.since) == ["2024-04-29", "2025-04-24", "2025-04-24", "2026-04-28"])
    }
}
