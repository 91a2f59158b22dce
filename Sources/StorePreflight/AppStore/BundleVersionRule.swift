import BinaryInspect
import ShipcheckCore

/// `CFBundleShortVersionString` and `CFBundleVersion` missing or malformed.
package enum BundleVersionRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-bundle-version",
        summary:
            "CFBundleShortVersionString or CFBundleVersion is missing or not one to three period-separated integers.",
        rationale: """
            App Store Connect refuses a bundle whose Info.plist lacks CFBundleVersion (ITMS-90056) \
            or CFBundleShortVersionString (ITMS-90057), or whose version is not a period-separated \
            list of at most three non-negative integers (ITMS-90060: "The value for key \
            CFBundleShortVersionString '4.0.2-alpha-1' …"): often a framework packaged by a \
            dependency manager, or a build setting left unexpanded ('$(MARKETING_VERSION)'). \
            Checked in the Info.plist of the app and of every extension, watch app, app clip and \
            framework inside it. Only for artifacts meant for the App Store (bundle.distribution).
            """,
        defaultSeverity: .error,
        storeRejection:
            "ITMS-90056 / ITMS-90057: missing CFBundleVersion / CFBundleShortVersionString; ITMS-90060: malformed version",
        fix:
            "set MARKETING_VERSION and CURRENT_PROJECT_VERSION to numbers such as 2.1.0 and 42 (Xcode writes both keys from them)",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓plist Payload/App.app/Info.plist {CFBundleShortVersionString = \"2.1 beta\"; CFBundleVersion = 42;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 2.1; CFBundleVersion = 42;}\nimage Payload/App.app/Frameworks/Z.framework/Z arm64 ios 15.0 26.0\n↓plist Payload/App.app/Frameworks/Z.framework/Info.plist {CFBundleShortVersionString = 1.0;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓plist Payload/App.app/Info.plist {CFBundleShortVersionString = \"$(MARKETING_VERSION)\"; CFBundleVersion = 1.2.3.4;}"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 2.1.0; CFBundleVersion = 2024.11.3;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = 2.1; CFBundleVersion = 42;}\nfile Payload/App.app/Settings.bundle/Root.plist"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleShortVersionString = beta;}\ndistribution ad-hoc"
            )
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.bundles.filter {
            $0.role.isApplicationLike || ($0.role == .framework && bundle.application(holding: $0.path) != nil)
        }
        .compactMap { nested -> Finding? in
            var problems: [String] = []
            var codes: [String] = []
            for (key, code) in [("CFBundleShortVersionString", "ITMS-90057"), ("CFBundleVersion", "ITMS-90056")] {
                guard let value = nested.info(key), !value.isEmpty else {
                    problems.append("has no \(key)")
                    codes.append(code)
                    continue
                }
                if OSVersion(value) == nil {
                    problems.append(
                        "\(key) '\(value)' is not a period-separated list of at most three non-negative integers")
                    codes.append("ITMS-90060")
                }
            }
            guard !problems.isEmpty else { return nil }
            let name = bundle.displayName(nested.path)
            let plist = nested.infoPlistPath ?? nested.path
            return bundle.finding(
                description, context.severity, at: plist,
                message: "\(name)'s Info.plist \(problems.joined(separator: "; ")) (\(codes.joined(separator: ", ")))",
                fix: "set MARKETING_VERSION and CURRENT_PROJECT_VERSION to plain numbers (2.1.0, 42) for this target",
                identity: "version")
        }
    }
}
