import ShipcheckCore

/// A library with text relocations.
package enum TextRelocationsRule: AndroidRule {
    package static let description = RuleDescription(
        id: "android-text-relocations",
        summary: "A native library has text relocations (DT_TEXTREL): Android refuses to load it.",
        rationale: """
            A library built without -fPIC for some of its code asks the loader to patch its code \
            pages at load time (DT_TEXTREL, or DF_TEXTREL in DT_FLAGS). Android refuses that for \
            64-bit libraries always and for 32-bit ones in apps targeting API 23 or later: \
            dlopen failed: "libx.so" has text relocations. It is usually hand-written assembly \
            or an old prebuilt static library linked into the .so.
            """,
        defaultSeverity: .error,
        storeRejection: "the app's launch: dlopen failed: \"libx.so\" has text relocations",
        fix: "compile every object of the library with -fPIC (assembly: position-independent addressing), then relink",
        triggeringExamples: [
            RuleExample("↓lib lib/armeabi-v7a/libcodec.so textrel\nlib lib/arm64-v8a/libcodec.so"),
            RuleExample("kind jniLibs\n↓lib x86_64/libcodec.so textrel")
        ],
        nonTriggeringExamples: [
            RuleExample("lib lib/armeabi-v7a/libcodec.so\nlib lib/arm64-v8a/libcodec.so")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        artifact.readLibraries.compactMap { library, elf in
            guard elf.hasTextRelocations else { return nil }
            return artifact.finding(
                description, context.severity, at: library.path,
                message:
                    "\(artifact.describe(library)) has text relocations (DT_TEXTREL): dlopen failed: \"\(library.name.isEmpty ? artifact.shown("") : library.name)\" has text relocations",
                fix: "compile every object of the library with -fPIC and relink", identity: "textrel")
        }
    }
}
