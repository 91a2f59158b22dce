import AndroidArtifacts
import ShipcheckCore

/// The oldest target API level Google Play takes new apps and app updates at, by form factor and
/// since when, as the Play Console Help page "Target API level requirements for Google Play
/// apps" states them (every year on August 31; an extension form moves the day to November 1 for
/// apps that ask). Android Automotive OS apps were exempt before 2025. docs/play.md lists the rows.
package enum PlayTargetAPIFloors {
    package static let source = DataSource(
        title: "Target API level requirements for Google Play apps",
        url: "https://support.google.com/googleplay/android-developer/answer/11926878",
        retrieved: "2026-11-27")

    /// The lowest target API level by form factor.
    package static let table = DatedFloors<AndroidManifest.FormFactor, Int>([
        ("2023-08-31", [(.mobile, 33), (.wear, 30)]),
        ("2024-08-31", [(.mobile, 34), (.wear, 33), (.television, 33)]),
        ("2025-08-31", [(.mobile, 35), (.wear, 34), (.television, 34), (.automotive, 34)]),
        ("2026-08-31", [(.mobile, 36), (.wear, 35), (.television, 34), (.automotive, 35)])
    ])
}
