import AndroidArtifacts
import ShipcheckCore

/// Uncompressed 64-bit libraries an APK loads in place that do not start on a 16 KB boundary,
/// and App Bundles that ask bundletool to align them to less.
package enum ZipAlignmentRule: AndroidRule {
    package static let description = RuleDescription(
        id: "play-16kb-zip-alignment",
        summary:
            "An uncompressed 64-bit library of an APK that loads libraries in place is not 16 KB-aligned in the zip, or an App Bundle asks for less.",
        rationale: """
            With android:extractNativeLibs="false" (what the Android Gradle Plugin writes for \
            minSdk 23 and later) the platform maps native libraries straight out of the APK, so \
            each uncompressed .so must start on a page boundary inside the zip: 16 KB on Android \
            15's 16 KB devices. Google Play refuses such uploads ("Uncompressed native libraries \
            are not zip aligned for 16 KB within your app"); zipalign -c -P 16 is the check by \
            hand. An APK's stored arm64-v8a and x86_64 entries are checked where its manifest \
            says the libraries are not extracted (compressed libraries are extracted at install \
            and need no zip alignment). An App Bundle holds no APK: its BundleConfig.pb tells \
            bundletool how to align the APKs Google Play makes from it, and with uncompressed \
            native libraries an alignment below 16 KB (or none, from a bundletool before 1.17) is \
            reported.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: \"Uncompressed native libraries are not zip aligned for 16 KB within your app\"",
        fix:
            "build with Android Gradle Plugin 8.5.1 or later (or zipalign -P 16 4 before signing); for a bundle, AGP 8.5.1+ writes a 16 KB alignment into BundleConfig.pb",
        triggeringExamples: [
            RuleExample(
                "manifest AndroidManifest.xml extractNativeLibs=false\n↓lib lib/arm64-v8a/libapp.so stored=4096"),
            RuleExample(
                "manifest AndroidManifest.xml extractNativeLibs=false\nlib lib/arm64-v8a/libapp.so stored=16384\n↓lib lib/x86_64/libapp.so stored=20480"
            ),
            RuleExample(
                "kind aab\nmanifest base/manifest/AndroidManifest.xml\n↓bundle-config uncompressed=true bundletool=1.15.6\nlib base/lib/arm64-v8a/libapp.so"
            ),
            RuleExample(
                "kind aab\nmanifest base/manifest/AndroidManifest.xml\n↓bundle-config uncompressed=true alignment=4k bundletool=1.18.1\nlib base/lib/arm64-v8a/libapp.so"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "manifest AndroidManifest.xml extractNativeLibs=false\nlib lib/arm64-v8a/libapp.so stored=65536"),
            RuleExample("manifest AndroidManifest.xml\nlib lib/arm64-v8a/libapp.so stored=4096"),
            RuleExample("manifest AndroidManifest.xml extractNativeLibs=false\nlib lib/arm64-v8a/libapp.so deflated"),
            RuleExample(
                "manifest AndroidManifest.xml extractNativeLibs=false\nlib lib/armeabi-v7a/libapp.so stored=4096"),
            RuleExample(
                "kind aab\nmanifest base/manifest/AndroidManifest.xml\nbundle-config uncompressed=true bundletool=1.17.0\nlib base/lib/arm64-v8a/libapp.so"
            ),
            RuleExample(
                "kind aab\nmanifest base/manifest/AndroidManifest.xml\nbundle-config uncompressed=false bundletool=1.15.6\nlib base/lib/arm64-v8a/libapp.so"
            )
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        var findings: [Finding] = []
        let sixtyFourBit = artifact.libraries.filter { $0.abi?.mayRunWith16KBPages == true }
        if artifact.kind == .aab, let config = artifact.bundleConfig, config.uncompressNativeLibraries,
            !sixtyFourBit.isEmpty
        {
            let alignment =
                config.nativeLibraryAlignment ?? (Self.alignsTo16KB(config.bundletoolVersion) ? 16384 : 4096)
            if alignment < 16384 {
                let stated =
                    config.nativeLibraryAlignment == nil
                    ? "no alignment, which bundletool \(config.bundletoolVersion ?? "(version not recorded)") takes as 4 KB"
                    : "a \(alignment / 1024) KB alignment"
                findings.append(
                    artifact.finding(
                        description, context.severity, at: config.path,
                        message:
                            "\(config.path) keeps native libraries uncompressed with \(stated): the APKs Google Play generates from this bundle map \(sixtyFourBit.count) 64-bit librar\(sixtyFourBit.count == 1 ? "y" : "ies") from 4 KB-aligned zip entries, which 16 KB devices cannot load",
                        fix: "build the bundle with Android Gradle Plugin 8.5.1 or later (PAGE_ALIGNMENT_16K)",
                        identity: "bundle-alignment"))
            }
        }
        for library in sixtyFourBit {
            guard case .stored(let offset)? = library.storage, offset % 16384 != 0 else { continue }
            let apk =
                library.module.isEmpty
                ? artifact.mainManifest : artifact.manifests.first { $0.module == library.module }
            let extracted = apk?.manifest.extractNativeLibs ?? artifact.mainManifest?.manifest.extractNativeLibs
            guard extracted == false else { continue }
            findings.append(
                artifact.finding(
                    description, context.severity, at: library.path,
                    message:
                        "\(library.path) is stored uncompressed at offset \(offset) of the APK (\(offset % 16384) bytes past a 16 KB boundary) and the manifest says android:extractNativeLibs=\"false\": 16 KB devices cannot map it from the APK",
                    fix: "align the APK with zipalign -P 16 4 (Android Gradle Plugin 8.5.1+ does) before signing",
                    identity: "zip-alignment"))
        }
        return findings
    }

    /// bundletool 1.17.0 and later align uncompressed libraries to 16 KB when the bundle says nothing.
    static func alignsTo16KB(_ version: String?) -> Bool {
        guard let version else { return false }
        let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        return parts.lexicographicallyPrecedes([1, 17, 0]) == false
    }
}
