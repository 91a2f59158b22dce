import AndroidArtifacts
import ShipcheckCore

/// Native code for a 32-bit ABI without its 64-bit counterpart.
package enum SixtyFourBitRule: AndroidRule {
    package static let description = RuleDescription(
        id: "play-64-bit-required",
        summary:
            "Native code ships for a 32-bit ABI (armeabi-v7a, x86) without its 64-bit counterpart (arm64-v8a, x86_64), or a library is missing from it.",
        rationale: """
            Since August 2019 Google Play requires apps with 32-bit native code to include the \
            matching 64-bit code ("This release is not compliant with the Google Play 64-bit \
            requirement"), and since 2021 it does not serve 64-bit devices an app without it. \
            A device installs the libraries of one ABI only, so a library that ships for \
            armeabi-v7a but not for arm64-v8a is missing on every 64-bit phone: dlopen fails \
            there even though the upload passes. Reported once per 32-bit ABI without its \
            64-bit ABI, and once per library missing from a 64-bit ABI the artifact does ship; \
            for AARs and library folders too, which end up in apps.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: \"This release is not compliant with the Google Play 64-bit requirement\"",
        fix:
            "add arm64-v8a (and x86_64) to the ABIs the native code is built for (abiFilters, CMake/ndk-build APP_ABI)",
        triggeringExamples: [
            RuleExample("↓lib lib/armeabi-v7a/libapp.so"),
            RuleExample("lib lib/armeabi-v7a/libapp.so\nlib lib/arm64-v8a/libapp.so\n↓lib lib/x86/libapp.so"),
            RuleExample(
                "lib lib/armeabi-v7a/libapp.so\n↓lib lib/armeabi-v7a/libvendor.so\nlib lib/arm64-v8a/libapp.so"),
            RuleExample("kind aar\n↓lib jni/x86/libcodec.so\nlib jni/arm64-v8a/libcodec.so")
        ],
        nonTriggeringExamples: [
            RuleExample("lib lib/armeabi-v7a/libapp.so\nlib lib/arm64-v8a/libapp.so"),
            RuleExample("lib lib/arm64-v8a/libapp.so\nlib lib/x86_64/libapp.so"),
            RuleExample(
                "lib lib/armeabi-v7a/libapp.so\nlib lib/arm64-v8a/libapp.so\nlib lib/x86/libapp.so\nlib lib/x86_64/libapp.so"
            ),
            RuleExample("kind aab\nlib base/lib/armeabi-v7a/libapp.so\nlib base/lib/arm64-v8a/libapp.so")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        guard artifact.kind != .library else { return [] }
        let abis = Set(artifact.libraries.compactMap(\.abi))
        var findings: [Finding] = []
        for abi in abis.sorted() {
            guard let counterpart = abi.sixtyFourBitCounterpart else { continue }
            let libraries = artifact.libraries.filter { $0.abi == abi }
            guard abis.contains(counterpart) else {
                let folder = libraries[0].folder
                findings.append(
                    artifact.finding(
                        description, context.severity, at: folder,
                        message:
                            "\(folder) holds \(libraries.count) \(abi.rawValue) librar\(libraries.count == 1 ? "y" : "ies") and the artifact has no \(counterpart.rawValue) code: Google Play refuses 32-bit native code without its 64-bit counterpart",
                        fix: "build the native code for \(counterpart.rawValue) too", identity: "abi \(abi.rawValue)"))
                continue
            }
            let sixtyFourBit = artifact.packagedNames(for: counterpart)
            for library in libraries where !sixtyFourBit.contains(library.name) {
                findings.append(
                    artifact.finding(
                        description, context.severity, at: library.path,
                        message:
                            "\(library.name) ships for \(abi.rawValue) but not for \(counterpart.rawValue): 64-bit devices install the \(counterpart.rawValue) libraries only, where loading it fails with dlopen failed: library \"\(library.name)\" not found",
                        fix:
                            "build \(library.name) for \(counterpart.rawValue) too, or remove the \(abi.rawValue) copy",
                        identity: "missing \(counterpart.rawValue)"))
            }
        }
        return findings
    }
}
