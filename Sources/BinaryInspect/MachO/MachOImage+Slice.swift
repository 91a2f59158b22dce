import ScanEngine
import ShipcheckCore

/// The pre-flight model's facts of one Mach-O image, from what its load commands said when it
/// was opened plus the symbols and pointers the leak rules' read already decoded.
extension MachOImage {
    /// `symbols`: the image's symbol listing (undefined entries are imports, binds included);
    /// `selectors`: the method names `__objc_selrefs` points at (linked images).
    func slice(symbols: [BinarySymbol], selectors: NameList) throws(InputError) -> ImageSlice {
        var slice = ImageSlice(architecture: origin.architecture ?? cpu, member: origin.member)
        slice.fileType = kind
        if let build = buildVersion {
            (slice.platform, slice.minimumOS, slice.sdk, slice.versionCommand) = (
                build.platform, build.minimum, build.sdk, build.command
            )
        }
        slice.uuid = uuidString
        slice.libraries = libraries
        slice.segments = segments.map {
            ImageSlice.Segment(name: $0.name, fileSize: $0.fileSize, vmSize: $0.memorySize)
        }
        slice.sections = sections.map { ImageSlice.Section(segment: $0.segment, name: $0.name, size: $0.size) }
        slice.hasCodeSignature = codeSignatureBlob != nil
        // What dyld binds: the chained fixups' import table (complete even when strip took the
        // symbol table's undefined entries away), else the symbol table's undefined externals
        // with the bind opcodes' imports (`symbols` holds both).
        if holdsCode, kind.isLinked, let chainedFixups {
            try forEachChainedImport(chainedFixups.bytes) { name in
                slice.importedSymbols.append(bytes: name, droppingPrefix: symbolPrefix)
            }
        } else {
            for symbol in symbols where !symbol.isDefined && symbol.section == "UND" {
                symbol.name.withByteView { slice.importedSymbols.append(bytes: $0, droppingPrefix: symbolPrefix) }
            }
        }
        slice.selectorReferences = selectors
        return slice
    }

    /// `LC_UUID` as `4C4C4411-5555-3144-A1E2-0123456789AB`.
    var uuidString: String? {
        guard let uuid else { return nil }
        let hex = uuid.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }.joined(separator: "-")
    }
}
