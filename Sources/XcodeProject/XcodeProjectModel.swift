/// One build configuration (an `XCBuildConfiguration`, an XcodeGen config) of a project or target.
public struct BuildConfiguration: Sendable, Hashable {
    /// The pbxproj object ID, or a synthetic one for other sources.
    public var id: String
    public var name: String
    /// Settings written at this level, in file order.
    public var settings: [BuildSetting]
    /// The `.xcconfig` this configuration is based on (path resolved like the project's other
    /// paths), or nil.
    public var baseConfigurationPath: String?

    public init(id: String, name: String, settings: [BuildSetting], baseConfigurationPath: String? = nil) {
        self.id = id
        self.name = name
        self.settings = settings
        self.baseConfigurationPath = baseConfigurationPath
    }

    /// The last unconditional assignment of `key` at this level.
    public func setting(_ key: String) -> BuildSetting? {
        settings.last { $0.key == key && $0.condition == nil }
    }
}

/// A target of a project, its build configurations, what it builds and its source files.
public struct XcodeTarget: Sendable, Hashable {
    public var id: String
    public var name: String
    public var configurations: [BuildConfiguration]
    /// pbxproj `productType` (`com.apple.product-type.application`,
    /// `com.apple.product-type.bundle.unit-test`) or XcodeGen `type` (`application`,
    /// `bundle.unit-test`); nil when not written.
    public var productType: String?
    /// The files its Sources build phase compiles and the folders it compiles whole (Xcode 16
    /// synchronized folders, XcodeGen `sources`), relative to the scan root like every path
    /// of the model.
    public var sources: [String]
    /// The files its Resources build phase copies and the folders it copies whole (synchronized
    /// folders, XcodeGen `sources`), relative to the scan root: where its `PrivacyInfo.xcprivacy` is.
    public var resources: [String]
    /// Info.plist entries the project itself writes (XcodeGen `info: properties:`), scalars as text.
    public var infoProperties: [String: String]

    public init(
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
    public var isApplication: Bool {
        guard let productType, testKind == nil else { return false }
        return productType.contains("application") || productType.contains("extension")
    }

    /// Whether `path` (relative to the scan root) is one of `entries` or inside one of them.
    public static func contains(_ entries: [String], _ path: String) -> Bool {
        entries.contains { $0 == path || $0 == "." || path.hasPrefix($0 + "/") }
    }

    /// "unit-test" or "UI-test" for a test bundle (never archived), nil for anything else.
    public var testKind: String? {
        guard let productType else { return nil }
        if productType.hasSuffix("bundle.unit-test") { return "unit-test" }
        if productType.hasSuffix("bundle.ui-testing") { return "UI-test" }
        return nil
    }
}

/// A project's build settings, whichever file described them.
public struct XcodeProject: Sendable, Hashable {
    public enum Kind: String, Sendable { case pbxproj, xcodegen }

    public var kind: Kind
    /// The file read: `App.xcodeproj/project.pbxproj` or `project.yml`.
    public var file: String
    /// The folder `$(SRCROOT)` / `$(PROJECT_DIR)` name: the one holding the `.xcodeproj` (or `project.yml`).
    public var projectDirectory: String
    public var projectName: String
    /// Project-level configurations.
    public var configurations: [BuildConfiguration]
    public var targets: [XcodeTarget]

    public init(
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
    public var configurationNames: [String] {
        Set(configurations.map(\.name) + targets.flatMap { $0.configurations.map(\.name) }).sorted()
    }
}
