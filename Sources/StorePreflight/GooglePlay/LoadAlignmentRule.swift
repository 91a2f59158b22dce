import AndroidArtifacts
import ShipcheckCore

/// A 64-bit library whose `PT_LOAD` segments are aligned below 16 KB.
package enum LoadAlignmentRule: AndroidRule {
    package static let description = RuleDescription(
        id: "play-16kb-load-alignment",
        summary: "A 64-bit native library (arm64-v8a, x86_64) has a PT_LOAD segment aligned below 16 KB.",
        rationale: """
            Devices with 16 KB memory pages (Android 15 and later) cannot map a library whose \
            loadable segments are aligned to 4 KB: dlopen fails with "program alignment (4096) \
            cannot be smaller than system page size (16384)", or the app runs in a slower \
            compatibility mode. Google Play refuses new apps and updates targeting Android 15+ \
            whose 64-bit libraries do not support 16 KB pages ("Your app does not support 16 KB \
            memory page sizes"). Every PT_LOAD of every arm64-v8a and x86_64 library is read (not \
            only the first, as check_elf_alignment.sh does), in APKs, App Bundles, APK sets, AARs \
            and library folders, so a prebuilt library is caught before it is packaged; 32-bit \
            ABIs run on 4 KB devices only and are not judged.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: \"Your app does not support 16 KB memory page sizes\"",
        fix:
            "rebuild the library with NDK r28 or later, or link it with -Wl,-z,max-page-size=16384; update a third-party library to a 16 KB-aligned release",
        triggeringExamples: [
            RuleExample("↓lib lib/arm64-v8a/libapp.so align=0x1000,0x1000"),
            RuleExample("lib lib/arm64-v8a/libapp.so\n↓lib lib/x86_64/libswiftCore.so align=0x4000,0x1000"),
            RuleExample("kind aab\n↓lib base/lib/arm64-v8a/libapp.so align=0x1000"),
            RuleExample("kind jniLibs\n↓lib x86_64/libvendor.so align=0x2000,0x2000")
        ],
        nonTriggeringExamples: [
            RuleExample("lib lib/arm64-v8a/libapp.so align=0x4000,0x4000"),
            RuleExample("lib lib/arm64-v8a/libapp.so align=0x10000,0x10000"),
            RuleExample("lib lib/armeabi-v7a/libapp.so align=0x1000,0x1000"),
            RuleExample("lib lib/x86/libapp.so align=0x1000")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        artifact.readLibraries.compactMap { library, elf in
            guard library.abi.map(\.mayRunWith16KBPages) ?? (elf.is64Bit && [183, 62].contains(elf.machine)),
                let smallest = elf.smallestLoadAlignment, smallest < 16384
            else { return nil }
            let count = elf.loadSegments.filter { $0.alignment < 16384 }.count
            return artifact.finding(
                description, context.severity, at: library.path,
                message:
                    "\(artifact.describe(library)) has \(count) of \(elf.loadSegments.count) PT_LOAD segments aligned to \(Self.size(smallest)) (0x\(String(smallest, radix: 16))): on a 16 KB-page device dlopen fails with \"program alignment (\(smallest)) cannot be smaller than system page size (16384)\", and Google Play refuses it for apps targeting Android 15+",
                fix:
                    "rebuild \(library.name) with NDK r28+ or -Wl,-z,max-page-size=16384 (a third-party library: a 16 KB-aligned release)",
                identity: "load-alignment")
        }
    }

    static func size(_ bytes: UInt64) -> String {
        bytes >= 1024 && bytes % 1024 == 0 ? "\(bytes / 1024) KB" : "\(bytes) bytes"
    }
}
