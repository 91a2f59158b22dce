import ShipcheckCore

/// `preflight-purpose-string` in a project: the APIs an app target's sources use that need a
/// purpose string, against its Info.plist (INFOPLIST_FILE, INFOPLIST_KEY_… settings).
extension PurposeStringRule: PrivacyProjectRule {
    static let projectInputs: PrivacyProjectInputs = [.sources, .propertyLists]

    /// One finding per set of keys used and not described, at its first use.
    static func findings(in app: AppTarget) -> [Finding] {
        guard let lookup = app.infoPlistLookup() else { return [] }
        var reported: Set<[String]> = []
        var findings: [Finding] = []
        for (path, use) in app.located(where: { if case .purpose = $0 { true } else { false } }) {
            guard case .purpose(let index) = use.use.subject else { continue }
            let row = PurposeStrings.requirements[index]
            let values = row.keys.compactMap(lookup)
            guard !values.contains(where: { !$0.isEmpty }), reported.insert(row.keys).inserted else { continue }
            let keys =
                row.keys.count == 1
                ? row.keys[0] : "\(row.keys[0]) (or \(row.keys.dropFirst().joined(separator: ", ")))"
            let problem =
                values.isEmpty
                ? "target \(app.target.name)'s Info.plist has no \(keys): App Store Connect will reject the upload (ITMS-90683 Missing purpose string)"
                : "target \(app.target.name)'s Info.plist has an empty \(keys): App Store Connect will reject the upload (ITMS-90738 Invalid purpose string value)"
            findings.append(
                Finding(
                    ruleID: id, severity: description.defaultSeverity,
                    message: "\(use.use.spelling) uses \(row.resource); \(problem)",
                    location: .source(SourceLocation(path: path, line: use.line, column: use.column)),
                    snippet: use.use.spelling,
                    fixHint:
                        "add \(row.keys[0]) to the Info.plist (or INFOPLIST_KEY_\(row.keys[0]) to the build settings) saying why the app uses \(row.resource)",
                    identity: "target \(app.target.name) \(row.keys.joined(separator: " "))"))
        }
        return findings
    }
}
