import ScanEngine
import ShipcheckCore

/// What a Mach-O image says about its build and its dependencies, in Mach-O's own terms (the
/// rules only relay these).
extension MachOImage {
    /// `LC_LOAD_DYLIB` and its weak / re-export / lazy / upward variants, then `LC_LINKER_OPTION`
    /// (objects: `-framework XCTest`, `-lswiftCore`).
    package func linkedLibraries() throws(InputError) -> [LinkedLibrary] { libraries }

    package func buildFacts() -> [BuildFact] {
        var facts: [BuildFact] = []
        if let uuid = uuidString {
            facts.append(
                BuildFact(
                    message: "uuid \(uuid)", section: "LC_UUID",
                    fix: "none needed: it matches this build to its dSYM and crash reports", identity: "uuid"))
        }
        if let build = buildVersion {
            let tools = build.tools.isEmpty ? "" : "; built with \(build.tools.joined(separator: ", "))"
            facts.append(
                BuildFact(
                    message: "built for \(build.platform.displayName) \(build.minimum) (SDK \(build.sdk))\(tools)",
                    section: build.command,
                    fix: "none needed", identity: "platform"))
        }
        if kind.isLinked && holdsCode {
            if let signature = codeSignatureBlob {
                facts.append(
                    BuildFact(
                        message: "code signature present (\(signature.size) bytes)", section: "LC_CODE_SIGNATURE",
                        fix: "none needed: the store re-signs the app", identity: "code-signature"))
            } else {
                facts.append(
                    BuildFact(
                        message: "no code signature: this image is unsigned", section: nil,
                        fix: "sign release artifacts (codesign) before distributing them", identity: "code-signature"))
            }
        }
        if let encryption {
            facts.append(
                encryption.id == 0
                    ? BuildFact(
                        message: "not encrypted (\(encryption.command), cryptid 0)", section: encryption.command,
                        fix: "none needed", identity: "encryption")
                    : BuildFact(
                        message:
                            "encrypted (\(encryption.command), cryptid \(encryption.id)): \(encryption.size) bytes from offset \(encryption.offset) are FairPlay-encrypted, so the Swift metadata inside them was not audited",
                        section: encryption.command,
                        fix:
                            "audit the build before it is uploaded (the .xcarchive or exported .ipa), not a copy downloaded from the store",
                        identity: "encryption"))
        }
        let stabs = debugSymbolCount()
        if stabs > 0 {
            facts.append(
                BuildFact(
                    message:
                        "not stripped: \(stabs) debug-map (stab) symbols name the object files and sources it was built from",
                    section: "LC_SYMTAB",
                    fix: "strip release artifacts (strip -S, or STRIP_INSTALLED_PRODUCT = YES), keeping a dSYM",
                    identity: "debug-sections"))
        }
        return facts
    }
}
