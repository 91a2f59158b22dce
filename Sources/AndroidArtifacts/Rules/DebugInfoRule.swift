import Foundation
import ShipcheckCore

/// A release library that still carries its debug information.
package enum DebugInfoRule: AndroidRule {
    package static let description = RuleDescription(
        id: "android-debug-info",
        summary: "A native library in a release artifact still carries DWARF debug information (.debug_* sections).",
        rationale: """
            The Android Gradle Plugin strips native libraries when it packages a release build \
            (and keeps the debug information for Play's native crash symbolication on the side), \
            so .debug_* sections in an APK, App Bundle or APK set mean the strip step was \
            skipped (keepDebugSymbols, a prebuilt library packaged as is, a debug build type): \
            the download grows by that much on every device, and the sources' paths and \
            structure ship with it. Reported with the size; libraries in AARs and folders are \
            stripped when the app is packaged and are not reported.
            """,
        defaultSeverity: .warning,
        fix:
            "let the Android Gradle Plugin strip native libraries (no keepDebugSymbols for release), or llvm-strip --strip-debug prebuilt ones; upload the unstripped copies for crash symbolication",
        triggeringExamples: [
            RuleExample("↓lib lib/arm64-v8a/libapp.so debug=2097152"),
            RuleExample("kind aab\nlib base/lib/arm64-v8a/libapp.so\n↓lib base/lib/x86_64/libapp.so debug=4096")
        ],
        nonTriggeringExamples: [
            RuleExample("lib lib/arm64-v8a/libapp.so"),
            RuleExample("kind aar\nlib jni/arm64-v8a/libapp.so debug=2097152"),
            RuleExample("kind jniLibs\nlib arm64-v8a/libapp.so debug=2097152")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        guard artifact.isUploaded else { return [] }
        return artifact.readLibraries.compactMap { library, elf in
            guard !elf.debugSections.isEmpty else { return nil }
            return artifact.finding(
                description, context.severity, at: library.path,
                message:
                    "\(library.path) carries \(Self.size(elf.debugSize)) of debug information in \(elf.debugSections.count) .debug_* section\(elf.debugSections.count == 1 ? "" : "s"): the release build did not strip it",
                fix:
                    "let the Android Gradle Plugin strip it (no keepDebugSymbols for release), or llvm-strip --strip-debug",
                identity: "debug-info")
        }
    }

    static func size(_ bytes: UInt64) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : "\(bytes) bytes"
    }
}
