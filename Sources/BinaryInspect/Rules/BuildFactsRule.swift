import ShipcheckCore

/// Notes a reviewer wants beside the leaks: which build this is and how it was made. The facts
/// are stated by each format's reader; this rule relays them.
package enum BuildFactsRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-build-facts",
        summary:
            "Build facts: identity (build-id / UUID), toolchain, platform, code signature, encryption, debug information present.",
        rationale: """
            Notes, never failures. ELF: the GNU build-id identifies the artifact; .comment names the \
            compiler and linker; .debug_* sections mean the binary was not stripped (larger, and it \
            carries source paths and local names). Mach-O: LC_UUID matches the build to its dSYM; \
            LC_BUILD_VERSION / LC_VERSION_MIN_* give the platform, minimum OS and SDK; whether \
            LC_CODE_SIGNATURE is present; LC_ENCRYPTION_INFO says whether the App Store encrypted \
            it (encrypted metadata cannot be audited); stab symbols mean it was not stripped.
            """,
        defaultSeverity: .note,
        triggeringExamples: [
            RuleExample("↓build-id 0123abcd"),
            RuleExample("↓comment Swift version 6.3.1"),
            RuleExample("↓section .debug_info 4096"),
            RuleExample("↓fact uuid 4C4C4411-5555-3144-A1E2-0123456789AB")
        ],
        nonTriggeringExamples: [RuleExample("needed libc.so.6"), RuleExample("linker-option -lSystem")])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.buildFacts.map { fact in
            contents.finding(
                description, context.severity, message: fact.message, section: fact.section, symbol: nil, offset: nil,
                fix: fact.fix, identity: fact.identity)
        }
    }
}
