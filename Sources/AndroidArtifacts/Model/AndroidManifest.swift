/// What the Play and loader rules read of a module's `AndroidManifest.xml`, taken from the
/// element tree whatever its encoding.
package struct AndroidManifest: Sendable, Hashable {
    package var package: String?
    package var versionCode: Int64?
    package var versionName: String?
    package var minSdk: Int?
    /// `targetSdkVersion` as written: a number, or a preview's codename.
    package var targetSdkText: String?
    /// `<application android:debuggable>`; nil when absent or a resource reference.
    package var debuggable: Bool?
    /// `<application android:testOnly>`.
    package var testOnly: Bool?
    /// `<application android:extractNativeLibs>`: false when the libraries are loaded in place
    /// from the APK (which then must keep them uncompressed and page-aligned).
    package var extractNativeLibs: Bool?
    /// `<manifest split>`: a configuration or feature split of a split APK set.
    package var split: String?
    package var formFactor: FormFactor = .mobile
    /// Every `<uses-permission>` and `<uses-permission-sdk-23>` name, in document order, each
    /// once (the permissions the app requests; `<permission>` declares its own, not requested).
    package var permissions: [String] = []
    /// The components of `<application>`, in document order.
    package var components: [Component] = []
    /// What `<queries>` asks to see of other apps (`AndroidManifest.queries(of:)`).
    package var queries: [String] = []

    package init() {}

    /// The target API level: `targetSdkVersion`, else `minSdkVersion` (as the platform defaults
    /// it), else 1; nil for a preview codename.
    package var targetSdk: Int? {
        if let targetSdkText { return Int(targetSdkText) }
        return minSdk ?? 1
    }

    /// The device family the app declares in `<uses-feature>`: Play's target API requirement
    /// differs for each.
    package enum FormFactor: String, Sendable, CaseIterable {
        case mobile = "phone and tablet"
        case wear = "Wear OS"
        case television = "Android TV"
        case automotive = "Android Automotive OS"
    }

    package init(_ root: ManifestElement) throws(ManifestError) {
        guard root.name == "manifest" else { throw ManifestError("the root element is <\(root.name)>, not <manifest>") }
        package = root.attribute("package")?.value.text
        versionCode = root.androidAttribute(.versionCode)?.value.integer
        versionName = root.androidAttribute(.versionName)?.value.text
        split = root.attribute("split")?.value.text
        if let usesSdk = root.children(named: "uses-sdk").first {
            minSdk = usesSdk.androidAttribute(.minSdkVersion)?.value.integer.flatMap { Int(exactly: $0) }
            targetSdkText = usesSdk.androidAttribute(.targetSdkVersion)?.value.text
        }
        if let application = root.children(named: "application").first {
            debuggable = application.androidAttribute(.debuggable)?.value.boolean
            testOnly = application.androidAttribute(.testOnly)?.value.boolean
            extractNativeLibs = application.androidAttribute(.extractNativeLibs)?.value.boolean
            components = Self.components(of: application, targetSdk: targetSdk)
        }
        let requests: Set = ["uses-permission", "uses-permission-sdk-23"]
        for element in root.children where requests.contains(element.name) {
            if let name = element.androidAttribute(.name)?.value.text, !permissions.contains(name) {
                permissions.append(name)
            }
        }
        queries = Self.queries(of: root)
        for feature in root.children(named: "uses-feature")
        where feature.androidAttribute(.required)?.value.boolean != false {
            switch feature.androidAttribute(.name)?.value.text {
            case "android.hardware.type.watch": formFactor = .wear
            case "android.software.leanback": formFactor = .television
            case "android.hardware.type.automotive": formFactor = .automotive
            default: continue
            }
        }
    }
}
