import ShipcheckCore

/// `#Preview { … }` expansions, traced back to the source line the macro was written on.
package enum PreviewMacroRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-preview-macro",
        summary: "A #Preview macro expansion ships in the binary.",
        rationale: """
            `#Preview` expands to a type conforming to DeveloperToolsSupport.PreviewRegistry, named \
            by the macro's unique name (…fMf_…PreviewRegistryfMu_). That name records the source \
            file, line and column of the `#Preview`, which the finding reports. It survives -Onone \
            and non-WMO builds and stays in the metadata after strip.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "↓conformance App.$s3App0014Appswift_IwJBbfMX2_0_33_E43A8CCEA282046670AC3C840611B7E8Ll7PreviewfMf_15PreviewRegistryfMu_: DeveloperToolsSupport.PreviewRegistry"
            )
        ],
        nonTriggeringExamples: [
            RuleExample("conformance App.ContentView_Previews: SwiftUI.PreviewProvider"),
            RuleExample("conformance App.Registry: App.PreviewRegistry")
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.metadata.conformances.compactMap { conformance in
            guard PreviewMacroName.isExpansion(conformance.typeName) else { return nil }
            let position = PreviewMacroName.sourcePosition(of: conformance.typeName)
            let origin =
                position.map { "#Preview at \($0.file):\($0.line):\($0.column)" }
                ?? "#Preview (source position not recorded)"
            let size = contents.size(ofType: conformance.typeName)
            return contents.finding(
                description, context.severity,
                message:
                    "\(origin) ships in this build as \(conformance.typeName); \(BinaryContents.describeSize(size))",
                section: conformance.place.section, symbol: conformance.typeName, offset: conformance.place.offset,
                fix: "wrap the #Preview in `#if DEBUG … #endif`",
                identity: position.map { "#Preview \($0.file):\($0.line)" } ?? conformance.typeName)
        }
    }
}
