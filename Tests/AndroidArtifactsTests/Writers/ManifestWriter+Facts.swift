import AndroidArtifacts

/// The permissions, queries and components of a manifest as a build writes them.
extension ManifestWriter {
    /// `R.attr.foregroundServiceType`'s flag values (AOSP's `attrs_manifest.xml`, the same as
    /// `ServiceInfo.FOREGROUND_SERVICE_TYPE_*`), kept apart from the reader's table.
    private static let foregroundServiceFlags: [String: Int64] = [
        "dataSync": 0x1, "mediaPlayback": 0x2, "phoneCall": 0x4, "location": 0x8, "connectedDevice": 0x10,
        "mediaProjection": 0x20, "camera": 0x40, "microphone": 0x80, "health": 0x100, "remoteMessaging": 0x200,
        "systemExempted": 0x400, "shortService": 0x800, "fileManagement": 0x1000, "mediaProcessing": 0x2000,
        "specialUse": 0x4000_0000
    ]

    /// `<uses-permission>` for each, every second one as `<uses-permission-sdk-23>` (both are
    /// requests), and a `<permission>` the app declares for itself, which is no request.
    static func permissionElements(_ manifest: AndroidManifest) -> [ManifestElement] {
        guard !manifest.permissions.isEmpty else { return [] }
        var elements = manifest.permissions.enumerated().map { index, name in
            ManifestElement(
                name: index % 2 == 0 ? "uses-permission" : "uses-permission-sdk-23",
                attributes: [android("name", .string(name))])
        }
        elements.append(
            ManifestElement(name: "permission", attributes: [android("name", .string("com.example.OWN_PERMISSION"))]))
        return elements
    }

    /// `<queries>`: `package:` as `<package>`, `intent:ACTION[;scheme=S]` as `<intent>` with its
    /// `<action>` and `<data>`, `provider:` as `<provider android:authorities>`.
    static func queriesElement(_ queries: [String]) -> ManifestElement? {
        guard !queries.isEmpty else { return nil }
        var element = ManifestElement(name: "queries")
        for query in queries {
            let (kind, value) = (query.prefix { $0 != ":" }, String(query.drop { $0 != ":" }.dropFirst()))
            switch kind {
            case "package":
                element.children.append(ManifestElement(name: "package", attributes: [android("name", .string(value))]))
            case "intent":
                let parts = value.split(separator: ";scheme=", maxSplits: 1).map(String.init)
                var intent = ManifestElement(name: "intent")
                intent.children.append(
                    ManifestElement(name: "action", attributes: [android("name", .string(parts[0]))]))
                if parts.count == 2 {
                    intent.children.append(
                        ManifestElement(name: "data", attributes: [android("scheme", .string(parts[1]))]))
                }
                element.children.append(intent)
            default:
                element.children.append(
                    ManifestElement(name: "provider", attributes: [android("authorities", .string(value))]))
            }
        }
        return element
    }

    /// A component as a pre-API-31 build leaves it: an exported activity by its
    /// `<intent-filter>` alone, everything else with `android:exported` written; a service's
    /// foreground types as a flag set when compiled, as `a|b` in text.
    static func componentElement(_ component: AndroidManifest.Component, compiled: Bool) -> ManifestElement {
        var element = ManifestElement(
            name: component.kind.rawValue, attributes: [android("name", .string(component.name))])
        if component.isExported {
            element.children.append(
                ManifestElement(
                    name: "intent-filter",
                    children: [
                        ManifestElement(name: "action", attributes: [android("name", .string("com.example.OPEN"))])
                    ]))
        }
        if component.kind != .activity || !component.isExported {
            element.attributes.append(android("exported", .boolean(component.isExported)))
        }
        if !component.foregroundServiceTypes.isEmpty {
            let types = component.foregroundServiceTypes
            element.attributes.append(
                android(
                    "foregroundServiceType",
                    compiled
                        ? .integer(types.reduce(0) { $0 | (foregroundServiceFlags[$1] ?? 0) })
                        : .string(types.joined(separator: "|"))))
        }
        return element
    }
}
