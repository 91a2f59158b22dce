import ShipcheckCore

/// `preflight-required-reason-api` in a project: the required reason APIs an app target's
/// sources use, against the privacy manifests in its resources.
extension RequiredReasonAPIRule: PrivacyProjectRule {
    static let projectInputs: PrivacyProjectInputs = [.sources, .manifests]

    /// One finding per category used and not declared, at its first use; macOS targets are
    /// asked for none.
    static func findings(in app: AppTarget) -> [Finding] {
        guard !app.isMacOS else { return [] }
        var undeclared: [RequiredReasonCategory: [(path: String, use: PrivacyDeclarationsCheck.LocatedUse)]] = [:]
        for (path, use) in app.located(where: { if case .requiredReason = $0 { true } else { false } }) {
            guard case .requiredReason(let index) = use.use.subject else { continue }
            let categories = RequiredReasonAPIs.apis[index].categories
            let declared = categories.contains { category in
                app.manifests.contains { !$0.manifest.reasons(for: category, declaredByApp: true).isEmpty }
            }
            if !declared { undeclared[categories[0], default: []].append((path, use)) }
        }
        return undeclared.sorted { $0.key < $1.key }.map { category, places in
            let (path, first) = places[0]
            let others =
                places.count > 1
                ? " (and \(places.count - 1) other use\(places.count == 2 ? "" : "s") in the target)" : ""
            let manifestText =
                app.manifests.isEmpty
                ? "target \(app.target.name) has no PrivacyInfo.xcprivacy in its resources"
                : "no privacy manifest of target \(app.target.name) (\(app.manifests.map(\.path).joined(separator: ", "))) declares it with an approved reason"
            var finding = Finding(
                ruleID: id, severity: description.defaultSeverity,
                message:
                    "\(first.use.spelling) is a \(category.title) required reason API\(others); \(manifestText): App Store Connect will reject the upload (ITMS-91053 Missing API declaration)",
                location: .source(SourceLocation(path: path, line: first.line, column: first.column)),
                snippet: first.use.spelling,
                fixHint:
                    "declare \(category.rawValue) in target \(app.target.name)'s PrivacyInfo.xcprivacy with the approved reason that fits: "
                    + category.reasons.filter { !$0.sdkOnly }.map { "\($0.code) (\($0.summary))" }.joined(
                        separator: "; "),
                identity: "target \(app.target.name) \(category.rawValue)")
            if places.count > 1 {
                finding.related = places.map { path, use in
                    RelatedLocation(
                        location: .source(SourceLocation(path: path, line: use.line, column: use.column)),
                        message: use.use.spelling)
                }
            }
            return finding
        }
    }
}
