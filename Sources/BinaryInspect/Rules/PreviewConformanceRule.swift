import ShipcheckCore

/// Types conforming to the preview protocols: the classic `PreviewProvider`, `PreviewModifier`.
package enum PreviewConformanceRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-preview-conformance",
        summary:
            "A SwiftUI preview type (PreviewProvider / PreviewModifier / PreviewRegistry conformance) ships in the binary.",
        rationale: """
            Preview providers are development-only code. They survive -Onone and non-WMO builds, and \
            any `public` preview survives every build; the conformance record stays in \
            swift5_protocol_conformances even after strip. Found through the Swift metadata, so \
            stripped binaries are covered.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("↓conformance App.ContentView_Previews: SwiftUI.PreviewProvider"),
            RuleExample("↓conformance App.SharedSetup: SwiftUI.PreviewModifier")
        ],
        nonTriggeringExamples: [
            RuleExample("conformance App.ContentView: SwiftUI.View"),
            // #Preview expansions are reported by binary-preview-macro, with their source position.
            RuleExample(
                "conformance App.$s3App0014Appswift_IwJBbfMX2_0_33_E43A8CCEA282046670AC3C840611B7E8Ll7PreviewfMf_15PreviewRegistryfMu_: DeveloperToolsSupport.PreviewRegistry"
            )
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.metadata.conformances.compactMap { conformance in
            guard PreviewProtocols.all.contains(conformance.protocolName),
                !PreviewMacroName.isExpansion(conformance.typeName)
            else { return nil }
            let size = contents.size(ofType: conformance.typeName)
            return contents.finding(
                description, context.severity,
                message:
                    "preview type \(conformance.typeName) (conforms to \(conformance.protocolName)) ships in this build; \(BinaryContents.describeSize(size))",
                section: conformance.place.section, symbol: "\(conformance.typeName): \(conformance.protocolName)",
                offset: conformance.place.offset,
                fix:
                    "wrap the preview in `#if DEBUG … #endif`; if it is `public`, make it internal so -O -wmo can drop it",
                identity: "\(conformance.typeName): \(conformance.protocolName)")
        }
    }
}
