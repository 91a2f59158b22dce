/// One build configuration (an `XCBuildConfiguration`, an XcodeGen config) of a project or target.
package struct BuildConfiguration: Sendable, Hashable, Codable {
    /// The pbxproj object ID, or a synthetic one for other sources.
    package var id: String
    package var name: String
    /// Settings written at this level, in file order.
    package var settings: [BuildSetting]
    /// The `.xcconfig` this configuration is based on (path resolved like the project's other
    /// paths), or nil.
    package var baseConfigurationPath: String?

    package init(id: String, name: String, settings: [BuildSetting], baseConfigurationPath: String? = nil) {
        self.id = id
        self.name = name
        self.settings = settings
        self.baseConfigurationPath = baseConfigurationPath
    }

    /// The last unconditional assignment of `key` at this level.
    package func setting(_ key: String) -> BuildSetting? {
        settings.last { $0.key == key && $0.condition == nil }
    }
}

/// A target of a project, its build configurations, what it builds and its source files.
package struct XcodeTarget: Sendable, Hashable, Codable {
    package var id: String
    package var name: String
    package var configurations: [BuildConfiguration]
    /// pbxproj `productType` (`com.apple.product-type.application`,
    /// `com.apple.product-type.bundle.unit-test`) or XcodeGen `type` (`application`,
    /// `bundle.unit-test`); nil when not written.
    package var productType: String?
    /// The files its Sources build phase compiles and the folders it compiles whole (Xcode 16
    /// synchronized folders, XcodeGen `sources`), relative to the scan root like every path
    /// of the model.
    package var sources: [String]
    /// The files its Resources build phase copies and the folders it copies whole (synchronized
    /// folders, XcodeGen `sources`), relative to the scan root: where its `PrivacyInfo.xcprivacy` is.
    package var resources: [String]
    /// Info.plist entries the project itself writes (XcodeGen `info: properties:`), scalars as text.
    package var infoProperties: [String: String]

    package init(
        id: String, name: String, configurations: [BuildConfiguration], productType: String? = nil,
        sources: [String] = [],
        resources: [String] = [], infoProperties: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.configurations = configurations
        self.productType = productType
        self.sources = sources
        self.resources = resources
        self.infoProperties = infoProperties
    }

    /// Whether it builds an app, an App Clip, a watch app or an app extension: a product that
    /// ships with its own Info.plist and privacy manifest.
    package var isApplication: Bool {
        guard let productType, testKind == nil else { return false }
        return productType.contains("application") || productType.contains("extension")
    }

    /// Whether `path` (relative to the scan root) is one of `entries` or inside one of them.
    package static func contains(_ entries: [String], _ path: String) -> Bool {
        entries.contains { $0 == path || $0 == "." || path.hasPrefix($0 + "/") }
    }

    /// "unit-test" or "UI-test" for a test bundle (never archived), nil for anything else.
    package var testKind: String? {
        guard let productType else { return nil }
        if productType.hasSuffix("bundle.unit-test") { return "unit-test" }
        if productType.hasSuffix("bundle.ui-testing") { return "UI-test" }
        return nil
    }
}

/// A project's build settings, whichever file described them.
package struct XcodeProject: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Codable { case pbxproj, xcodegen }

    package var kind: Kind
    /// The file read: `App.xcodeproj/project.pbxproj` or `project.yml`.
    package var file: String
    /// The folder `$(SRCROOT)` / `$(PROJECT_DIR)` name: the one holding the `.xcodeproj` (or `project.yml`).
    package var projectDirectory: String
    package var projectName: String
    /// Project-level configurations.
    package var configurations: [BuildConfiguration]
    package var targets: [XcodeTarget]

    package init(
        kind: Kind, file: String, projectDirectory: String, projectName: String,
        configurations: [BuildConfiguration], targets: [XcodeTarget]
    ) {
        self.kind = kind
        self.file = file
        self.projectDirectory = projectDirectory
        self.projectName = projectName
        self.configurations = configurations
        self.targets = targets
    }

    /// Every configuration name used by the project or a target, sorted.
    package var configurationNames: [String] {
        Set(configurations.map(\.name) + targets.flatMap { $0.configurations.map(\.name) }).sorted()
    }
}
