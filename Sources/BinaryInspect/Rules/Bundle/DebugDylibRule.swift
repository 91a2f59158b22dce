import ShipcheckCore

/// Xcode 16's debug-dylib layout: `App` (a stub), `App.debug.dylib`, `__preview.dylib`.
package enum DebugDylibRule: BundleRule {
    package static let description = RuleDescription(
        id: "bundle-debug-dylib",
        summary: "A Debug build was archived: `*.debug.dylib` or `__preview.dylib` beside the executable.",
        rationale: """
            Since Xcode 16, unoptimized builds of apps and app extensions (ENABLE_DEBUG_DYLIB, on \
            by default in Debug) link the app's code into `App.debug.dylib` beside a small stub \
            executable, plus `__preview.dylib` for Xcode Previews. Release builds link everything \
            into the executable. Either file in a bundle means the artifact is a Debug build.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("file Payload/App.app/App\n↓file Payload/App.app/App.debug.dylib"),
            RuleExample(
                "kind app\nimage Contents/MacOS/App arm64 macos 14.0 26.0\n↓file Contents/MacOS/__preview.dylib")
        ],
        nonTriggeringExamples: [
            RuleExample("file Payload/App.app/App\nfile Payload/App.app/Frameworks/libDebugMenu.dylib"),
            RuleExample("file Payload/App.app/debug.dylib.txt")
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        bundle.files.compactMap { path in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard name.hasSuffix(".debug.dylib") || name == "__preview.dylib" else { return nil }
            return bundle.finding(
                description, context.severity, at: path,
                message: "\(name) ships: this bundle is a Debug build (Xcode's debug-dylib layout for previews)",
                fix:
                    "archive with the Release configuration (or set ENABLE_DEBUG_DYLIB = NO for the configuration you ship)",
                identity: "debug-dylib")
        }
    }
}
