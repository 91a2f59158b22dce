import ShipcheckCore

/// `@Previewable` state inside `#Preview` leaves a wrapper type behind.
package enum PreviewableWrapperRule: BinaryRule {
    static let wrapperName = "__P_Previewable_Transform_Wrapper"

    package static let description = RuleDescription(
        id: "binary-previewable-wrapper",
        summary: "A @Previewable wrapper type from a #Preview ships in the binary.",
        rationale: """
            `@Previewable` variables in a `#Preview` body are moved into a generated \
            `__P_Previewable_Transform_Wrapper` type. Its presence means preview code was \
            compiled into the build.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "↓type struct App.$s3App0014Appswift_IwJBbfMX2_0_33_E43A8CCEA282046670AC3C840611B7E8Ll7PreviewfMf_15PreviewRegistryfMu_.__P_Previewable_Transform_Wrapper"
            )
        ],
        nonTriggeringExamples: [RuleExample("type struct App.TransformWrapper")])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.metadata.types.compactMap { type in
            guard type.name.hasSuffix(".\(wrapperName)") || type.name == wrapperName else { return nil }
            let origin =
                PreviewMacroName.sourcePosition(of: type.name).map {
                    " from the #Preview at \($0.file):\($0.line):\($0.column)"
                } ?? ""
            return contents.finding(
                description, context.severity,
                message:
                    "@Previewable wrapper\(origin) ships in this build; \(BinaryContents.describeSize(contents.size(ofType: type.name)))",
                section: type.place.section, symbol: type.name, offset: type.place.offset,
                fix: "wrap the #Preview that declares @Previewable state in `#if DEBUG … #endif`",
                identity: type.name)
        }
    }
}
