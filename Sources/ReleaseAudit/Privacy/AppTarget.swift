import Preflight
import ShipcheckCore
import XcodeProject

/// One app target in one release configuration, with what its sources use and what its
/// resources and Info.plist declare: the judgement of the project-side privacy rules.
struct AppTarget {
    let target: XcodeTarget
    let scope: XcodeSettingsCatalog.Scope
    let uses: [(index: Int, path: String, uses: [PrivacyDeclarationsCheck.LocatedUse])]
    let manifests: [(path: String, manifest: PrivacyManifest)]
    let propertyLists: [String: [String: String]?]

    /// Required reason declarations are asked of every platform but macOS.
    var isMacOS: Bool { scope.settings.resolve("SDKROOT")?.value == "macosx" }

    /// Every use of one kind, in file order, with its file.
    private func located(where matches: (SourceAPIScanner.Use.Subject) -> Bool) -> [(
        path: String, use: PrivacyDeclarationsCheck.LocatedUse
    )] {
        uses.flatMap { file in file.uses.filter { matches($0.use.subject) }.map { (file.path, $0) } }
    }

    /// One finding per category used and not declared, at its first use.
    func requiredReasonFindings() -> [Finding] {
        var undeclared: [RequiredReasonCategory: [(path: String, use: PrivacyDeclarationsCheck.LocatedUse)]] = [:]
        for (path, use) in located(where: { if case .requiredReason = $0 { true } else { false } }) {
            guard case .requiredReason(let index) = use.use.subject else { continue }
            let categories = RequiredReasonAPIs.apis[index].categories
            let declared = categories.contains { category in
                manifests.contains { !$0.manifest.reasons(for: category, declaredByApp: true).isEmpty }
            }
            if !declared { undeclared[categories[0], default: []].append((path, use)) }
        }
        return undeclared.sorted { $0.key < $1.key }.map { category, places in
            let (path, first) = places[0]
            let others =
                places.count > 1
                ? " (and \(places.count - 1) other use\(places.count == 2 ? "" : "s") in the target)" : ""
            let manifestText =
                manifests.isEmpty
                ? "target \(target.name) has no PrivacyInfo.xcprivacy in its resources"
                : "no privacy manifest of target \(target.name) (\(manifests.map(\.path).joined(separator: ", "))) declares it with an approved reason"
            var finding = Finding(
                ruleID: RequiredReasonAPIRule.id, severity: RequiredReasonAPIRule.description.defaultSeverity,
                message:
                    "\(first.use.spelling) is a \(category.title) required reason API\(others); \(manifestText): App Store Connect will reject the upload (ITMS-91053 Missing API declaration)",
                location: .source(SourceLocation(path: path, line: first.line, column: first.column)),
                snippet: first.use.spelling,
                fixHint:
                    "declare \(category.rawValue) in target \(target.name)'s PrivacyInfo.xcprivacy with the approved reason that fits: "
                    + category.reasons.filter { !$0.sdkOnly }.map { "\($0.code) (\($0.summary))" }.joined(
                        separator: "; "),
                identity: "target \(target.name) \(category.rawValue)")
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

    /// One finding per set of keys used and not described, at its first use.
    func purposeFindings() -> [Finding] {
        guard let lookup = infoPlistLookup() else { return [] }
        var reported: Set<[String]> = []
        var findings: [Finding] = []
        for (path, use) in located(where: { if case .purpose = $0 { true } else { false } }) {
            guard case .purpose(let index) = use.use.subject else { continue }
            let row = PurposeStrings.requirements[index]
            let values = row.keys.compactMap(lookup)
            guard !values.contains(where: { !$0.isEmpty }), reported.insert(row.keys).inserted else { continue }
            let keys =
                row.keys.count == 1
                ? row.keys[0] : "\(row.keys[0]) (or \(row.keys.dropFirst().joined(separator: ", ")))"
            let problem =
                values.isEmpty
                ? "target \(target.name)'s Info.plist has no \(keys): App Store Connect will reject the upload (ITMS-90683 Missing purpose string)"
                : "target \(target.name)'s Info.plist has an empty \(keys): App Store Connect will reject the upload (ITMS-90738 Invalid purpose string value)"
            findings.append(
                Finding(
                    ruleID: PurposeStringRule.id, severity: PurposeStringRule.description.defaultSeverity,
                    message: "\(use.use.spelling) uses \(row.resource); \(problem)",
                    location: .source(SourceLocation(path: path, line: use.line, column: use.column)),
                    snippet: use.use.spelling,
                    fixHint:
                        "add \(row.keys[0]) to the Info.plist (or INFOPLIST_KEY_\(row.keys[0]) to the build settings) saying why the app uses \(row.resource)",
                    identity: "target \(target.name) \(row.keys.joined(separator: " "))"))
        }
        return findings
    }

    /// How the target's Info.plist answers a key (its value, or nil when it lacks it), or nil
    /// when the Info.plist cannot be known: an INFOPLIST_FILE the scan did not read or that does
    /// not parse, or neither INFOPLIST_FILE nor a generated Info.plist.
    private func infoPlistLookup() -> ((String) -> String?)? {
        let settings = scope.settings
        var file: [String: String] = [:]
        if let setting = settings.resolve("INFOPLIST_FILE"), !setting.value.isEmpty {
            let expanded = BuildSettingExpansion.expand(setting.value, variables: settings.variables)
            let path = XcodePath.resolve(expanded, relativeTo: scope.project.projectDirectory)
            guard let read = propertyLists[path], let strings = read else { return nil }
            file = strings
        } else if settings.resolve("GENERATE_INFOPLIST_FILE")?.value.uppercased() != "YES",
            target.infoProperties.isEmpty
        {
            return nil
        }
        let properties = target.infoProperties
        return { key in
            settings.resolve("INFOPLIST_KEY_\(key)")?.value ?? file[key] ?? properties[key]
        }
    }
}
