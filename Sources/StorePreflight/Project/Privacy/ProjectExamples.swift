import Foundation

/// The small projects the rules' project-side examples live in: an XcodeGen spec whose app
/// target compiles and copies everything under `App/`, and privacy manifests for it.
enum ProjectExamples {
    static let appSpec = """
        name: App
        targets:
          App:
            type: application
            platform: iOS
            sources: [App]
            info:
              path: App/Info.plist
        """

    /// The same target, with purpose strings given as build settings (Xcode's generated Info.plist).
    static func appSpec(infoPlistKeys: [String: String]) -> String {
        appSpec.replacingOccurrences(
            of: "    info:\n      path: App/Info.plist",
            with: "    settings:\n      GENERATE_INFOPLIST_FILE: YES\n"
                + infoPlistKeys.sorted { $0.key < $1.key }.map { "      INFOPLIST_KEY_\($0.key): \"\($0.value)\"\n" }
                .joined())
    }

    static func manifest(_ declarations: [(category: String, reasons: [String])]) -> String {
        let entries = declarations.map { declaration in
            "    <dict><key>NSPrivacyAccessedAPIType</key><string>\(declaration.category)</string>"
                + "<key>NSPrivacyAccessedAPITypeReasons</key><array>"
                + declaration.reasons.map { "<string>\($0)</string>" }.joined() + "</array></dict>\n"
        }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>NSPrivacyTracking</key><false/>
            <key>NSPrivacyAccessedAPITypes</key><array>
            \(entries)</array>
            </dict></plist>
            """
    }

    static func infoPlist(_ entries: [String: String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.app</string>
        \(entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><string>\($0.value)</string>" }.joined(separator: "\n"))
        </dict></plist>
        """
    }
}
