extension AndroidManifest {
    /// An `<activity>`, `<activity-alias>`, `<service>`, `<receiver>` or `<provider>` of
    /// `<application>`: what other apps can reach, and what a service runs in the foreground as.
    package struct Component: Sendable, Hashable {
        package enum Kind: String, Sendable, CaseIterable {
            case activity
            case activityAlias = "activity-alias"
            case service, receiver, provider
        }

        package var kind: Kind
        /// `android:name` as written: a leading dot is relative to the manifest's package (the
        /// Android Gradle plugin's merged manifest writes the full name).
        package var name: String
        /// Whether other apps can start or bind it: `android:exported` where it is written,
        /// else the platform's default before API 31 made it mandatory: exported when it has an
        /// `<intent-filter>`, and a provider exported when the app targets an API below 17.
        package var isExported: Bool
        /// A service's `android:foregroundServiceType`, as `ForegroundServiceType` names them.
        package var foregroundServiceTypes: [String] = []

        package init(kind: Kind, name: String, isExported: Bool, foregroundServiceTypes: [String] = []) {
            self.kind = kind
            self.name = name
            self.isExported = isExported
            self.foregroundServiceTypes = foregroundServiceTypes
        }
    }

    /// The flags of `android:foregroundServiceType`, with the values aapt compiles the names to
    /// (AOSP's `ServiceInfo.FOREGROUND_SERVICE_TYPE_*`, each the constant "corresponding to" the
    /// attribute's flag; checked 2026-11-29, and API 29's six types, dataSync to mediaProjection,
    /// against what Debian's aapt compiles with Android 10's framework resources: `Facts.apk`).
    package enum ForegroundServiceType: String, Sendable, CaseIterable {
        case dataSync, mediaPlayback, phoneCall, location, connectedDevice, mediaProjection, camera, microphone
        case health, remoteMessaging, systemExempted, shortService, fileManagement, mediaProcessing, specialUse

        package var flag: Int64 {
            switch self {
            case .dataSync: 1 << 0
            case .mediaPlayback: 1 << 1
            case .phoneCall: 1 << 2
            case .location: 1 << 3
            case .connectedDevice: 1 << 4
            case .mediaProjection: 1 << 5
            case .camera: 1 << 6
            case .microphone: 1 << 7
            case .health: 1 << 8
            case .remoteMessaging: 1 << 9
            case .systemExempted: 1 << 10
            case .shortService: 1 << 11
            case .fileManagement: 1 << 12
            case .mediaProcessing: 1 << 13
            case .specialUse: 1 << 30
            }
        }

        /// The permission a service of this type needs from API 34
        /// (`android.permission.FOREGROUND_SERVICE_DATA_SYNC` …); nil for `shortService`, which
        /// needs none, and `fileManagement`, whose permission the platform keeps hidden.
        package var permission: String? {
            guard self != .shortService, self != .fileManagement else { return nil }
            let words = rawValue.reduce(into: "") { name, character in
                if character.isUppercase { name += "_" }
                name += character.uppercased()
            }
            return "android.permission.FOREGROUND_SERVICE_" + words
        }

        /// The names of a compiled flag set, in flag order; a bit no name here stands for is kept
        /// as its hexadecimal value (`0x4000`), so a newer platform's type is not dropped.
        package static func names(compiled value: Int64) -> [String] {
            var rest = value
            var names: [String] = []
            for type in allCases where value & type.flag != 0 {
                names.append(type.rawValue)
                rest &= ~type.flag
            }
            for bit in 0..<32 where rest & (1 << bit) != 0 {
                names.append("0x" + String(1 << bit, radix: 16))
            }
            return names
        }

        /// The names as a text manifest writes them (`dataSync|location`), in the order
        /// `names(compiled:)` gives, so the encodings agree.
        package static func names(text: String) -> [String] {
            let written = text.split(separator: "|").map { String($0.filter { !$0.isWhitespace }) }
            let known = allCases.map(\.rawValue).filter(written.contains)
            return known + written.filter { !known.contains($0) && !$0.isEmpty }
        }
    }

    /// The components of `<application>`, in document order. `targetSdk` is nil for a preview's
    /// codename, which targets the newest API.
    static func components(of application: ManifestElement, targetSdk: Int?) -> [Component] {
        application.children.compactMap { element in
            guard let kind = Component.Kind(rawValue: element.name),
                let name = element.androidAttribute(.name)?.value.text
            else { return nil }
            let hasIntentFilter = !element.children(named: "intent-filter").isEmpty
            let defaultExported = kind == .provider ? targetSdk.map { $0 < 17 } ?? false : hasIntentFilter
            var types: [String] = []
            if kind == .service, let value = element.androidAttribute(.foregroundServiceType)?.value {
                switch value {
                case .integer(let flags): types = ForegroundServiceType.names(compiled: flags)
                case .string(let text): types = ForegroundServiceType.names(text: text)
                case .boolean, .reference: break
                }
            }
            return Component(
                kind: kind, name: name,
                isExported: element.androidAttribute(.exported)?.value.boolean ?? defaultExported,
                foregroundServiceTypes: types)
        }
    }

    /// What `<queries>` asks to see: `package:NAME`, `intent:ACTION` (with `;scheme=SCHEME`
    /// when its `<data>` names one), `provider:AUTHORITIES`, in document order. An `<intent>`
    /// without an action matches nothing and is not listed.
    static func queries(of manifest: ManifestElement) -> [String] {
        var queries: [String] = []
        for element in manifest.children(named: "queries").flatMap(\.children) {
            switch element.name {
            case "package":
                if let name = element.androidAttribute(.name)?.value.text { queries.append("package:" + name) }
            case "intent":
                let scheme = element.children(named: "data").lazy.compactMap {
                    $0.androidAttribute(.scheme)?.value.text
                }.first
                for action in element.children(named: "action") {
                    guard let name = action.androidAttribute(.name)?.value.text else { continue }
                    queries.append("intent:" + name + (scheme.map { ";scheme=" + $0 } ?? ""))
                }
            case "provider":
                if let authorities = element.androidAttribute(.authorities)?.value.text {
                    queries.append("provider:" + authorities)
                }
            default: continue
            }
        }
        return queries
    }
}
