import BinaryInspect
import ShipcheckCore

/// A library Android's loader refuses for its headers: wrong architecture for its ABI folder,
/// section headers it does not accept, writable and executable segments.
package enum ELFRefusedRule: AndroidRule {
    package static let description = RuleDescription(
        id: "android-elf-refused",
        summary:
            "A native library's ELF headers are ones Android's loader refuses: another architecture than its ABI folder, missing or invalid section headers, writable and executable segments.",
        rationale: """
            bionic's linker checks a library's headers before it maps it, and refuses: a library \
            of another machine or class than the process ("is for EM_X86_64 (62) instead of \
            EM_AARCH64 (183)", a file copied into the wrong jniLibs folder); a library without \
            section headers ("has no section headers", since API 24, which some strip and \
            packing tools leave); for apps targeting API 26 and later, an invalid e_shentsize \
            or e_shstrndx ("has unsupported e_shentsize: 0x0 (expected 0x28)") and a PT_LOAD \
            that is both writable and executable. Each is read from the ELF header and program \
            headers, as the loader reads them, so a library too damaged for the leak rules is \
            still judged.
            """,
        defaultSeverity: .error,
        storeRejection:
            "the app's launch: dlopen failed: \"libx.so\" has no section headers (or is for … instead of …)",
        fix:
            "put the library in the folder of the ABI it was built for; rebuild instead of post-processing it (strip with llvm-strip, not sstrip or a packer); link without -z execstack or RWX sections",
        triggeringExamples: [
            RuleExample("↓lib lib/arm64-v8a/libapp.so machine=x86_64"),
            RuleExample("↓lib lib/armeabi-v7a/libapp.so class=64\nlib lib/arm64-v8a/libapp.so"),
            RuleExample("↓lib lib/arm64-v8a/libapp.so shdr=missing"),
            RuleExample("↓lib lib/x86_64/libapp.so shdr=entsize"),
            RuleExample("↓lib lib/arm64-v8a/libapp.so wx")
        ],
        nonTriggeringExamples: [
            RuleExample(
                "lib lib/arm64-v8a/libapp.so\nlib lib/x86_64/libapp.so\nlib lib/armeabi-v7a/libapp.so\nlib lib/x86/libapp.so"
            ),
            RuleExample("kind library\nlib libapp.so machine=x86_64")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        artifact.readLibraries.compactMap { library, elf in
            let name = library.name.isEmpty ? artifact.shown("") : library.name
            var refusals: [String] = []
            if let abi = library.abi {
                if elf.machine != abi.machine {
                    refusals.append(
                        "is for \(AndroidABI.machineName(elf.machine)) instead of \(AndroidABI.machineName(abi.machine)), the machine of \(abi.rawValue)"
                    )
                } else if elf.is64Bit != abi.is64Bit {
                    refusals.append("is \(elf.is64Bit ? 64 : 32)-bit instead of \(abi.is64Bit ? 64 : 32)-bit")
                }
            }
            if let problem = elf.sectionHeaderProblem { refusals.append(problem.loaderMessage) }
            if elf.loadSegments.contains(where: { $0.isWritable && $0.isExecutable }) {
                refusals.append("has load segments that are both writable and executable")
            }
            if !elf.isSharedObject { refusals.append("is not a shared object (e_type is not ET_DYN)") }
            guard !refusals.isEmpty else { return nil }
            return artifact.finding(
                description, context.severity, at: library.path,
                message:
                    "\(artifact.describe(library)) is refused by Android's loader: dlopen failed: \"\(name)\" \(refusals.joined(separator: "; it "))",
                fix: "rebuild \(name) for the ABI of its folder with the NDK and package it as the linker wrote it",
                identity: "refused")
        }
    }
}
