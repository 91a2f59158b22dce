import BinaryInspect
import ShipcheckCore

/// An extension, watch app or app clip whose versions differ from its app's.
package enum ExtensionVersionRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-extension-version",
        summary:
            "An app extension, watch app or app clip has another CFBundleShortVersionString or CFBundleVersion than its app.",
        rationale: """
            App Store Connect warns about every extension whose versions differ from the app's \
            (ITMS-90473: "The CFBundleShortVersionString value '1.0' of extension \
            'App.app/PlugIns/Widget.appex' does not match the CFBundleShortVersionString value \
            '1.0.7' of its containing iOS application"), and Xcode will not install such a pair \
            from some versions on. Every bundle nested in the app that users install with it is \
            compared with the outermost app. Only for artifacts meant for the App Store \
            (bundle.distribution).
            """,
        defaultSeverity: .warning,
        storeRejection: "ITMS-90473: CFBundleShortVersionString / CFBundleVersion Mismatch",
        fix:
            "let extensions inherit MARKETING_VERSION and CURRENT_PROJECT_VERSION from the project instead of setting their own",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 1.0.7; CFBundleVersion = 12;}\nimage Payload/App.app/PlugIns/W.appex/W arm64 ios 15.0 26.0\n↓plist Payload/App.app/PlugIns/W.appex/Info.plist {CFBundleShortVersionString = 1.0; CFBundleVersion = 12;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 2.0; CFBundleVersion = 12;}\nimage Payload/App.app/Watch/W.app/W arm64 watchos 9.0 26.0\n↓plist Payload/App.app/Watch/W.app/Info.plist {CFBundleShortVersionString = 2.0; CFBundleVersion = 1;}"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 1.0.7; CFBundleVersion = 12;}\nimage Payload/App.app/PlugIns/W.appex/W arm64 ios 15.0 26.0\nplist Payload/App.app/PlugIns/W.appex/Info.plist {CFBundleShortVersionString = 1.0.7; CFBundleVersion = 12;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 1.0.7; CFBundleVersion = 12;}\nimage Payload/App.app/Frameworks/K.framework/K arm64 ios 15.0 26.0\nplist Payload/App.app/Frameworks/K.framework/Info.plist {CFBundleShortVersionString = 5.3.1; CFBundleVersion = 1;}"
            )
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore, let app = bundle.mainApplication else { return [] }
        return bundle.bundles.filter { $0.path != app.path && $0.role.isApplicationLike && app.contains($0.path) }
            .compactMap { nested in
                let differing = ["CFBundleShortVersionString", "CFBundleVersion"].compactMap { key -> String? in
                    let own = nested.info(key), expected = app.info(key)
                    guard own != expected else { return nil }
                    return
                        "\(key) \(own.map { "'\($0)'" } ?? "(none)") differs from the app's \(expected.map { "'\($0)'" } ?? "(none)")"
                }
                guard !differing.isEmpty else { return nil }
                return bundle.finding(
                    description, context.severity, at: nested.infoPlistPath ?? nested.path,
                    message:
                        "\(bundle.displayName(nested.path)): \(differing.joined(separator: "; ")) (\(bundle.displayName(app.path))) (ITMS-90473)",
                    fix:
                        "give \(nested.name) the app's MARKETING_VERSION and CURRENT_PROJECT_VERSION (inherit them from the project)",
                    identity: "extension-version")
            }
    }
}
