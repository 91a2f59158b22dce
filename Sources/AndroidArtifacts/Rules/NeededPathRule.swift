import ShipcheckCore

/// A `DT_NEEDED` entry that is a path instead of a library name.
package enum NeededPathRule: AndroidRule {
    package static let description = RuleDescription(
        id: "android-needed-path",
        summary:
            "A native library names a needed library by a path (DT_NEEDED \"/build/out/libfoo.so\") instead of its name.",
        rationale: """
            When a library is linked against another by its path (and the other has no \
            DT_SONAME), the linker records that path — usually a folder on the build machine. \
            Android's loader used the file name alone until API 23; for apps targeting API 23 \
            and later it takes the path as it is, and the library is not found on any device: \
            dlopen failed: library "/build/out/libfoo.so" not found.
            """,
        defaultSeverity: .error,
        storeRejection: "the app's launch: dlopen failed: library \"/path/libfoo.so\" not found",
        fix: "give the needed library a DT_SONAME (-Wl,-soname,libfoo.so) and relink, or link it with -L DIR -lfoo",
        triggeringExamples: [
            RuleExample(
                "↓lib lib/arm64-v8a/libapp.so needs=/home/ci/out/arm64-v8a/libcore.so\nlib lib/arm64-v8a/libcore.so")
        ],
        nonTriggeringExamples: [
            RuleExample("lib lib/arm64-v8a/libapp.so needs=libcore.so\nlib lib/arm64-v8a/libcore.so")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        artifact.readLibraries.compactMap { library, elf in
            let paths = elf.needed.filter { $0.contains("/") }
            guard let first = paths.first else { return nil }
            return artifact.finding(
                description, context.severity, at: library.path,
                message:
                    "\(artifact.describe(library)) needs \(paths.map { "\"\($0)\"" }.joined(separator: ", ")) by path: apps targeting API 23+ fail with dlopen failed: library \"\(first)\" not found",
                fix:
                    "give the needed library a DT_SONAME (-Wl,-soname,\(first.split(separator: "/").last ?? "")) and relink",
                identity: "needed-path")
        }
    }
}
