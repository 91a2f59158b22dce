import ShipcheckCore

/// A `DT_NEEDED` library the app does not package for the same ABI and Android does not offer
/// to apps (or offers only on newer releases than the app's minimum).
package enum NeededLibraryRule: AndroidRule {
    package static let description = RuleDescription(
        id: "android-needed-library-missing",
        summary:
            "A native library needs a library that is neither packaged for its ABI nor a public Android system library (from the app's minSdk on).",
        rationale: """
            Android's linker looks for each DT_NEEDED library among the app's libraries of the \
            device's ABI and the platform's public NDK libraries, nowhere else: a Swift app \
            that packages libswiftCore.so, libFoundation.so or libc++_shared.so for arm64-v8a \
            but forgets them for x86_64 starts on phones and crashes on emulators and \
            Chromebooks with dlopen failed: library "libswiftCore.so" not found. Since API 24 \
            the private platform libraries (libcutils, libssl, the platform's libc++ …) are \
            refused too ("is not accessible for the namespace"), and an NDK library newer than \
            the app's minSdkVersion is missing on older devices. Every DT_NEEDED of every \
            packaged library is checked against the libraries packaged for the same ABI (in \
            any module) and the NDK's list (docs/play.md), naming the ABI and the library that \
            needs it. In AARs and library folders, which the app completes, only the platform \
            part is judged.
            """,
        defaultSeverity: .error,
        storeRejection: "the app's launch on devices of that ABI: dlopen failed: library \"X\" not found",
        fix:
            "package the library for every ABI the app ships (for the Swift runtime: copy the SDK's lib*.so for each ABI into jniLibs), or stop linking a private platform library",
        triggeringExamples: [
            RuleExample(
                "lib lib/arm64-v8a/libapp.so needs=libswiftCore.so,liblog.so\nlib lib/arm64-v8a/libswiftCore.so\n↓lib lib/x86_64/libapp.so needs=libswiftCore.so,liblog.so"
            ),
            RuleExample("↓lib lib/arm64-v8a/libapp.so needs=libcutils.so"),
            RuleExample("↓lib lib/arm64-v8a/libapp.so needs=libc++.so"),
            RuleExample("manifest AndroidManifest.xml minSdk=24\n↓lib lib/arm64-v8a/libapp.so needs=libicu.so"),
            RuleExample(
                "kind aab\nlib base/lib/arm64-v8a/libapp.so needs=libfeature.so\n↓lib base/lib/x86_64/libapp.so needs=libfeature.so\nlib feature/lib/arm64-v8a/libfeature.so"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "lib lib/arm64-v8a/libapp.so needs=libswiftCore.so,libc.so,libm.so,libdl.so,liblog.so,libandroid.so\nlib lib/arm64-v8a/libswiftCore.so needs=libc++_shared.so\nlib lib/arm64-v8a/libc++_shared.so"
            ),
            RuleExample("manifest AndroidManifest.xml minSdk=31\nlib lib/arm64-v8a/libapp.so needs=libicu.so"),
            RuleExample("kind aar\nlib jni/arm64-v8a/libcodec.so needs=libc++_shared.so"),
            RuleExample(
                "kind aab\nlib base/lib/arm64-v8a/libapp.so needs=libfeature.so\nlib feature/lib/arm64-v8a/libfeature.so"
            )
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        artifact.readLibraries.compactMap { library, elf in
            guard library.abi != nil || artifact.kind == .library else { return nil }
            let packaged = artifact.packagedNames(for: library.abi)
            var problems: [(name: String, why: String)] = []
            for name in elf.needed where !name.contains("/") && !packaged.contains(name) {
                if let level = NDKSystemLibraries.publicLibraries[name] {
                    if let minSdk = artifact.minSdk, level > minSdk {
                        problems.append(
                            (name, "a system library only since API \(level); the app's minSdk is \(minSdk)"))
                    }
                } else if NDKSystemLibraries.formerlyExempt.contains(name)
                    || name == NDKSystemLibraries.platformCXXRuntime
                {
                    problems.append(
                        (name, "a private platform library: \"is not accessible for the namespace\" since API 24"))
                } else if artifact.isUploaded {
                    let elsewhere = artifact.libraries.filter { $0.name == name && $0.abi != library.abi }.compactMap(
                        \.abi)
                    let note =
                        elsewhere.isEmpty
                        ? "" : ", packaged only for \(Set(elsewhere).sorted().map(\.rawValue).joined(separator: ", "))"
                    problems.append((name, "not packaged for \(library.abi?.rawValue ?? "this ABI")\(note)"))
                }
            }
            guard let first = problems.first else { return nil }
            let abi = library.abi.map { " (\($0.rawValue))" } ?? ""
            let missing = first.name
            return artifact.finding(
                description, context.severity, at: library.path,
                message:
                    "\(artifact.describe(library))\(abi) needs \(problems.map { "\($0.name) (\($0.why))" }.joined(separator: ", ")): loading it fails with dlopen failed: library \"\(missing)\" not found",
                fix: NDKSystemLibraries.isSwiftRuntime(missing)
                    ? "package the Swift SDK's \(missing) for \(library.abi?.rawValue ?? "every ABI") (jniLibs/\(library.abi?.rawValue ?? "<abi>")/)"
                    : "package \(missing) for \(library.abi?.rawValue ?? "this ABI"), or stop linking it",
                identity: "needed")
        }
    }
}
