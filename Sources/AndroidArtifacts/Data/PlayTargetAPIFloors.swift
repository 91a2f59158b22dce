import Preflight

/// The oldest target API level Google Play takes new apps and app updates at, by form factor and
/// since when, as the Play Console Help page "Target API level requirements for Google Play
/// apps" states them (every year on August 31; an extension form moves the day to November 1 for
/// apps that ask). Android Automotive OS apps were exempt before 2025. docs/play.md lists the rows.
package enum PlayTargetAPIFloors {
    package struct Floor: Sendable {
        package var formFactor: AndroidManifest.FormFactor
        package var apiLevel: Int
        /// `yyyy-MM-dd`, the first day uploads targeting a lower level are refused.
        package var since: String
    }

    package static let source = DataSource(
        title: "Target API level requirements for Google Play apps",
        url: "https://support.google.com/googleplay/android-developer/answer/11926878",
        retrieved: "2026-11-27")

    private static func floors(since: String, _ levels: [(AndroidManifest.FormFactor, Int)]) -> [Floor] {
        levels.map { Floor(formFactor: $0.0, apiLevel: $0.1, since: since) }
    }

    package static let table: [Floor] =
        floors(since: "2023-08-31", [(.mobile, 33), (.wear, 30)])
        + floors(since: "2024-08-31", [(.mobile, 34), (.wear, 33), (.television, 33)])
        + floors(since: "2025-08-31", [(.mobile, 35), (.wear, 34), (.television, 34), (.automotive, 34)])
        + floors(since: "2026-08-31", [(.mobile, 36), (.wear, 35), (.television, 34), (.automotive, 35)])

    /// The floor in force on `day` for a form factor, and the next one announced after it.
    static func floors(for formFactor: AndroidManifest.FormFactor, on day: String) -> (current: Floor?, next: Floor?) {
        let rows = table.filter { $0.formFactor == formFactor }.sorted { $0.since < $1.since }
        return (rows.last { $0.since <= day }, rows.first { $0.since > day })
    }
}
