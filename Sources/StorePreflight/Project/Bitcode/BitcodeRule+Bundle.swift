import BinaryInspect
import ShipcheckCore

/// `preflight-bitcode` in an artifact: every slice of every image, for the sections bitcode
/// lives in.
extension BitcodeRule: BundleRule {
    package static let checksSingleBinaries = true

    /// Where bitcode lives: the linker's xar bundle, and the compiler's per-object section.
    private static let bitcodeSections: Set<String> = ["__bundle", "__bitcode"]

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.images.compactMap { image in
            var linked: [String] = [], objects: [String] = []
            for slice in image.readSlices {
                guard
                    let section = slice.sections.first(where: {
                        $0.segment == "__LLVM" && bitcodeSections.contains($0.name)
                    })
                else { continue }
                let place = "\(slice.displayName): section \(section.fullName), \(section.size) bytes"
                if slice.fileType.isLinked { linked.append(place) } else { objects.append(place) }
            }
            if !linked.isEmpty {
                return bundle.finding(
                    description, context.severity, at: image.path,
                    message:
                        "\(bundle.shown(image)) contains bitcode (\(linked.joined(separator: "; "))): the App Store refuses it (ITMS-90482)",
                    fix:
                        "rebuild it with ENABLE_BITCODE = NO, take a release of it without bitcode, or run xcrun bitcode_strip -r on it",
                    identity: "bitcode")
            }
            guard !objects.isEmpty else { return nil }
            var finding = bundle.finding(
                description, .note, at: image.path,
                message:
                    "\(bundle.shown(image)) is a static library with bitcode (\(objects.prefix(3).joined(separator: "; "))\(objects.count > 3 ? "; \(objects.count - 3) more" : "")): the linker drops it from the app, so the App Store never sees it",
                fix: "nothing to do for the upload; a release of it without bitcode is smaller",
                identity: "bitcode static")
            finding.isDowngraded = true
            return finding
        }
    }
}
