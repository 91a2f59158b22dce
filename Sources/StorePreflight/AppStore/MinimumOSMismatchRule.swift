import BinaryInspect
import ShipcheckCore

/// `MinimumOSVersion` in a bundle's Info.plist against its executable's load commands.
package enum MinimumOSMismatchRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-minimum-os-mismatch",
        summary:
            "A bundle's Info.plist MinimumOSVersion is missing or disagrees with its executable's LC_BUILD_VERSION minimum OS.",
        rationale: """
            The App Store reads the minimum OS from Info.plist (MinimumOSVersion), devices run \
            what the executable was linked for (LC_BUILD_VERSION minos, LC_VERSION_MIN_*). Xcode \
            writes both from the deployment target, so a difference means one was edited by hand \
            or a vendor's framework was repackaged: an Info.plist below the executable's is \
            refused (ITMS-90208: "does not support the minimum OS Version specified in the \
            Info.plist"), a missing one too (ITMS-90360: "Missing Info.plist value \
            MinimumOSVersion"); one above it keeps the app from users whose OS could run it (a \
            warning). A universal executable runs from its lowest slice's minimum: Xcode links the \
            arm64 slice of a watch app built for watchOS 9 for watchOS 26, the first release that \
            runs arm64 watches, beside an arm64_32 slice for watchOS 9. Checked for the app, its \
            extensions, watch app, app clip and every framework of the iOS family. Only for artifacts meant for the App Store \
            (bundle.distribution).
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90208: Invalid Bundle (minimum OS); ITMS-90360: Missing Info.plist value",
        fix:
            "let Xcode write MinimumOSVersion from the deployment target (no hand-edited Info.plist value), and rebuild repackaged frameworks",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nimage Payload/App.app/Frameworks/G.framework/G arm64 ios 17.0 26.0\n↓plist Payload/App.app/Frameworks/G.framework/Info.plist {MinimumOSVersion = 13.0;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓plist Payload/App.app/Info.plist {CFBundleExecutable = App;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓«warning»plist Payload/App.app/Info.plist {MinimumOSVersion = 16.0;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0 version-min\n↓plist Payload/App.app/Info.plist {MinimumOSVersion = 14.0;}"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {MinimumOSVersion = 15.0;}\nimage Payload/App.app/Frameworks/G.framework/G arm64 ios 15.0 26.0\nplist Payload/App.app/Frameworks/G.framework/Info.plist {MinimumOSVersion = 15.0.0;}"
            ),
            RuleExample(
                "kind app\nimage Contents/MacOS/App arm64 macos 13.0 26.0\nplist Contents/Info.plist {LSMinimumSystemVersion = 13.0;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {MinimumOSVersion = 13.0;}\ndistribution enterprise"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nplist Payload/App.app/Info.plist {MinimumOSVersion = 16.0;}\nimage Payload/App.app/Watch/W.app/W arm64_32 watchos 9.0 26.0\nimage Payload/App.app/Watch/W.app/W arm64 watchos 26.0 26.0\nplist Payload/App.app/Watch/W.app/Info.plist {MinimumOSVersion = 9.0;}"
            )
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.bundles.filter { $0.role.isApplicationLike || $0.role == .framework }.compactMap {
            nested -> Finding? in
            guard bundle.application(holding: nested.path) != nil || nested.role.isApplicationLike,
                nested.infoPlistPath != nil, let image = bundle.executable(of: nested)
            else { return nil }
            let linked = image.readSlices.filter {
                $0.platform?.isMobileFamily == true && $0.platform?.isSimulator == false
            }
            guard let minimum = linked.compactMap(\.minimumOS).min(), let command = linked.first?.versionCommand else {
                return nil
            }
            let plist = nested.infoPlistPath!
            let name = bundle.displayName(nested.path)
            guard let text = nested.info("MinimumOSVersion") else {
                return bundle.finding(
                    description, context.severity, at: plist,
                    message:
                        "\(name)'s Info.plist has no MinimumOSVersion; its executable needs \(minimum) (\(command)) (ITMS-90360)",
                    fix: "set MinimumOSVersion to \(minimum) (Xcode writes it from the deployment target)",
                    identity: "minimum-os missing")
            }
            guard let declared = OSVersion(text) else {
                return bundle.finding(
                    description, context.severity, at: plist,
                    message:
                        "\(name)'s Info.plist MinimumOSVersion '\(text)' is not a version; its executable needs \(minimum) (\(command)) (ITMS-90208)",
                    fix: "set MinimumOSVersion to \(minimum)", identity: "minimum-os malformed")
            }
            if declared < minimum {
                return bundle.finding(
                    description, context.severity, at: plist,
                    message:
                        "\(name)'s Info.plist MinimumOSVersion is \(declared), but its executable needs \(minimum) (\(command)): devices on \(declared) would be offered a build they cannot run (ITMS-90208)",
                    fix: "set MinimumOSVersion to \(minimum), or relink the executable for \(declared)",
                    identity: "minimum-os below")
            }
            guard declared > minimum else { return nil }
            var finding = bundle.finding(
                description, .warning, at: plist,
                message:
                    "\(name)'s Info.plist MinimumOSVersion is \(declared), above its executable's \(minimum) (\(command)): the store keeps it from users on \(minimum) who could run it",
                fix: "set MinimumOSVersion and the deployment target to the same version", identity: "minimum-os above")
            finding.isDowngraded = true
            return finding
        }
    }
}
