import ShipcheckCore

/// Preview content, fixtures, mocks, sample data and test bundles shipped as resources.
package enum TestResourceRule: BundleRule, ConfigurableRule {
    /// `rules.bundle-test-resource.patterns`: case-sensitive regular expressions matched against
    /// each component of a file's path inside the bundle; set, they replace the built-in ones:
    /// `Preview Content` folders (Xcode's Development Assets), CamelCase and lower-case fixture /
    /// mock / stub / sample-data names (`(?![a-z])` ends a word, so `Hammock.png` and
    /// `stubborn.json` do not match), test bundles, and SwiftPM resource bundles of test targets
    /// (`Package_PackageTests.resources`).
    package typealias Options = PatternListOptions<Patterns>

    package enum Patterns: PatternListSpec {
        package static let builtIn = NamePattern.builtIn(
            [
                "^Preview Content$",
                "(?:Fixtures?|Mocks?|Stubs?|SampleData|PreviewData|TestData)(?![a-z])",
                "(?:^|[^A-Za-z])(?:fixtures?|mocks?|stubs?|sample[-_ ]?data|preview[-_ ]?data|test[-_ ]?data)(?![a-z])",
                "\\.xctest$",
                "Tests\\.(?:resources|bundle)$"
            ], caseInsensitive: caseInsensitive)
        package static let caseInsensitive = false
        package static let formerKey = "bundle.resource-patterns"
    }

    package static let description = RuleDescription(
        id: "bundle-test-resource",
        summary: "Preview content, fixtures, mocks, sample data or a test bundle ships as a resource.",
        rationale: """
            Files from a Development Assets folder (`Preview Content`), files and folders named \
            like fixtures, mocks, stubs or sample data, `.xctest` bundles and SwiftPM resource \
            bundles of test targets belong to previews and tests, not to what users download. \
            Every path component of every file in the bundle (SwiftPM `*.resources` and `*.bundle` \
            resource bundles included) is matched against `rules.bundle-test-resource.patterns`; a matching \
            folder is reported once. A framework's `Headers`, `PrivateHeaders` and `Modules` folders \
            (and an xcframework library's) are left out: they are the compiler's interface to the \
            code (gRPC's `generic_stub.h` is its client API), read when an app is built, and Xcode \
            strips them from the frameworks it embeds.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("↓file Payload/App.app/Preview Content/avatar.png"),
            RuleExample("↓file Payload/App.app/UserFixtures.json"),
            RuleExample("↓file Payload/App.app/mock_feed.json"),
            RuleExample("↓file Payload/App.app/PlugIns/AppTests.xctest/AppTests"),
            RuleExample("kind resources\n↓file sample-data/users.json")
        ],
        nonTriggeringExamples: [
            RuleExample(
                "file Payload/App.app/Hammock.png\nfile Payload/App.app/stubborn.json\nfile Payload/App.app/Assets.car"),
            RuleExample("file Payload/App.app/App_Settings.bundle/Root.plist\nfile Payload/App.app/sample.mp3"),
            // Firebase 12.1's grpcpp.xcframework: gRPC's public headers name its client stubs.
            RuleExample(
                """
                kind xcframework
                file ios-arm64/grpcpp.framework/Headers/generic/generic_stub.h
                file ios-arm64/grpcpp.framework/Headers/support/stub_options.h
                file ios-arm64/Headers/MockTransport.h
                file ios-arm64/Kit.framework/Modules/Kit.swiftmodule/arm64-apple-ios.swiftinterface
                file macos-arm64/Kit.framework/Versions/A/Headers/KitStubs.h
                """)
        ])

    /// Whether `components[index]` is the `Headers`, `PrivateHeaders` or `Modules` folder of a
    /// framework (or of a framework's version), or of an xcframework's library folder.
    static func isBuildInterfaceFolder(_ components: [Substring], at index: Int, inXCFramework: Bool) -> Bool {
        guard index > 0, index < components.count - 1,
            ["Headers", "PrivateHeaders", "Modules"].contains(components[index])
        else { return false }
        let grandparent = index >= 2 ? components[index - 2] : nil
        return components[index - 1].hasSuffix(".framework") || grandparent == "Versions"
            || grandparent?.hasSuffix(".xcframework") == true || (index == 1 && inXCFramework)
    }

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        let patterns = context.configuration.options(for: Self.self).patterns
        var reported: Set<String> = []
        var findings: [Finding] = []
        for path in bundle.files {
            let components = path.split(separator: "/")
            for (index, component) in components.enumerated() {
                if Self.isBuildInterfaceFolder(components, at: index, inXCFramework: bundle.kind == .xcframework) {
                    break
                }
                guard
                    let pattern = patterns.first(where: { $0.firstMatch(in: String(component)) != nil })
                else { continue }
                let matched = components[...index].joined(separator: "/")
                if reported.insert(matched).inserted {
                    let isFolder = index < components.count - 1
                    let count = isFolder ? bundle.files.filter { $0.hasPrefix(matched + "/") }.count : 1
                    findings.append(
                        bundle.finding(
                            description, context.severity, at: matched,
                            message: isFolder
                                ? "folder '\(component)' (\(count) file\(count == 1 ? "" : "s")) ships in the bundle: it matches '\(pattern.source)'"
                                : "'\(component)' ships in the bundle: it matches '\(pattern.source)'",
                            fix:
                                "keep preview and test data out of the app target (Development Assets, test targets' resources)",
                            identity: "resource"))
                }
                break
            }
        }
        return findings
    }
}
