/// How an app is meant to be distributed: what a provisioning profile allows, and what an
/// `ExportOptions.plist`'s `method` and the configuration's `bundle.distribution` name. The one
/// list of those names.
package enum DistributionMethod: String, Sendable, CaseIterable {
    /// No device list: App Store (and TestFlight) distribution.
    case appStore = "app-store"
    /// Devices listed, no `get-task-allow`.
    case adHoc = "ad-hoc"
    /// Devices listed and `get-task-allow`: signed with a development certificate.
    case development
    /// `ProvisionsAllDevices` (Apple Developer Enterprise Program, macOS Developer ID).
    case enterprise

    /// The export methods that mean this one, old and new names alike (Xcode 15.3 renamed
    /// app-store to app-store-connect, ad-hoc to release-testing, development to debugging;
    /// enterprise and developer-id both provision every device).
    package var exportMethods: [String] {
        switch self {
        case .appStore: ["app-store", "app-store-connect"]
        case .adHoc: ["ad-hoc", "release-testing"]
        case .development: ["development", "debugging"]
        case .enterprise: ["enterprise", "developer-id"]
        }
    }

    /// The method an export method names, or nil for a name none has.
    package init?(exportMethod: String) {
        guard let method = Self.allCases.first(where: { $0.exportMethods.contains(exportMethod) }) else { return nil }
        self = method
    }

    /// Every export method name, as the configuration's error lists them.
    package static var exportMethodNames: [String] { allCases.flatMap(\.exportMethods) }
}
