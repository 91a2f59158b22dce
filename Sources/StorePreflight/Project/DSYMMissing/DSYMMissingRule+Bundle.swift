import BinaryInspect
import ShipcheckCore

/// `preflight-dsym-missing` in an artifact: each archived image's slices against the UUIDs of
/// the archive's dSYMs.
extension DSYMMissingRule: BundleRule {
    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.kind == .xcarchive else { return [] }
        let archived = Set(bundle.debugSymbols.flatMap { $0.uuids.map(\.uuid) })
        return bundle.images.filter { $0.path.hasPrefix("Products/") }.compactMap { image -> Finding? in
            let missing = image.readSlices.filter { $0.uuid.map { !archived.contains($0) } ?? false }
            guard !missing.isEmpty else { return nil }
            let name = image.name
            let namesake = bundle.debugSymbols.first { $0.path.split(separator: "/").last == name }
            let uuids = missing.map { "\($0.uuid!) (\($0.displayName))" }.joined(separator: ", ")
            let message =
                namesake.map { dsym in
                    "\(bundle.shown(image)): \(dsym.bundle) is from another build (its UUIDs \(dsym.uuids.map(\.uuid).joined(separator: ", ")), the image's \(uuids)): crashes from this release cannot be symbolicated"
                }
                ?? "\(bundle.shown(image)) has no dSYM with UUID \(uuids) under dSYMs/: crashes from this release cannot be symbolicated"
            return bundle.finding(
                description, context.severity, at: image.path, message: message,
                fix:
                    "archive with DEBUG_INFORMATION_FORMAT = dwarf-with-dsym (a vendor's binary framework: add its dSYM to dSYMs/)",
                identity: "dsym")
        }
    }
}
