import BinaryInspect
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

/// Reads a written example back the way `shipcheck binary` reads a path: a bundle or .ipa
/// through the bundle walk, a single Mach-O file through `run(paths:)`.
enum ExampleArtifactReader {
    static func inspector(_ written: AppleExampleWriter.Written) -> BinaryInspector {
        BinaryInspector(configuration: written.configuration, rules: RuleRegistry.rules)
    }

    /// Every finding (leak rules and bundle rules) and every input error. The upload day is the
    /// run's, not the artifact's: the example's is given to the model read.
    static func check(_ written: AppleExampleWriter.Written) -> (findings: [Finding], errors: [InputError]) {
        let inspector = inspector(written)
        if written.model.kind == .binary {
            let result = inspector.run(paths: [written.root])
            return (result.findings, result.inputErrors)
        }
        let (contents, result) = inspector.readBundle(at: written.root)
        guard var contents else { return (result.findings, result.inputErrors) }
        contents.uploadDay = written.model.uploadDay
        return (result.findings + inspector.check(contents), result.inputErrors)
    }

    /// The model the readers make of the artifact (a single binary: its one image).
    static func read(_ written: AppleExampleWriter.Written) throws -> (contents: BundleContents?, errors: [InputError])
    {
        let inspector = inspector(written)
        guard written.model.kind == .binary else {
            let (contents, result) = inspector.readBundle(at: written.root)
            return (contents, result.inputErrors)
        }
        let (result, image) = inspector.inspect(try BinaryFile(path: written.root), at: "")
        var contents = BundleContents(root: written.root, kind: .binary)
        contents.images = image.map { [$0] } ?? []
        contents.distribution = written.model.distribution
        contents.assembleBundles()
        return (contents, result.inputErrors)
    }
}

/// Where a model read from bytes differs from the model the bytes were written from, field by
/// field, named: `Payload/App.app/App arm64: definedObjCClasses read [] written [XCTestCase]`.
/// Segments and sections compare by inclusion (the writer adds the ones its metadata lives in).
enum BundleModelComparison {
    static func differences(read: BundleContents, written: BundleContents) -> [String] {
        var found: [String] = []
        func check<T: Equatable>(_ what: String, _ got: T, _ expected: T) {
            if got != expected { found.append("\(what) read \(got) written \(expected)") }
        }
        check("kind", read.kind, written.kind)
        check("files", Set(read.files), Set(written.files))
        check("distribution", read.distribution.method, written.distribution.method)
        check("entitlements", merged(read.entitlements), merged(written.entitlements))
        check("profiles", profiles(read), profiles(written))
        check("privacy manifests", read.privacyManifests, written.privacyManifests)
        check("Info.plists", read.infoPlists, written.infoPlists)
        check("dSYMs", dsyms(read), dsyms(written))
        check("bundles", read.bundles.map(\.path).sorted(), written.bundles.map(\.path).sorted())
        for bundle in written.bundles {
            guard let other = read.bundle(at: bundle.path) else { continue }
            check("bundle \(bundle.path)", other, bundle)
        }
        check("images", read.images.map(\.path).sorted(), written.images.map(\.path).sorted())
        for image in written.images {
            guard let other = read.image(at: image.path) else { continue }
            check("\(image.path): bundle", other.bundle, image.bundle)
            check("\(image.path): isBundleExecutable", other.isBundleExecutable, image.isBundleExecutable)
            check("\(image.path): slices", other.slices.map(\.displayName), image.slices.map(\.displayName))
            for (got, slice) in zip(other.slices, image.slices) {
                found += differences(read: got, written: slice).map { "\(image.path) \(slice.displayName): \($0)" }
            }
        }
        return found
    }

    static func differences(read: ImageSlice, written: ImageSlice) -> [String] {
        var found: [String] = []
        func check<T: Equatable>(_ what: String, _ got: T, _ expected: T) {
            if got != expected { found.append("\(what) read \(got) written \(expected)") }
        }
        check("isRead", read.isRead, written.isRead)
        check("fileType", read.fileType, written.fileType)
        check("platform", read.platform, written.platform)
        check("minimumOS", read.minimumOS, written.minimumOS)
        check("sdk", read.sdk, written.sdk)
        check("versionCommand", read.versionCommand, written.versionCommand)
        check("uuid", read.uuid, written.uuid)
        check(
            "libraries", read.libraries.map { "\($0.record) \($0.name)" },
            written.libraries.map { "\($0.record) \($0.name)" })
        check("hasCodeSignature", read.hasCodeSignature, written.hasCodeSignature)
        check("importedSymbols", Array(read.importedSymbols), Array(written.importedSymbols))
        check("selectorReferences", Array(read.selectorReferences), Array(written.selectorReferences))
        check("definedModules", Set(read.definedModules), Set(written.definedModules))
        check("definedObjCClasses", Set(read.definedObjCClasses), Set(written.definedObjCClasses))
        let segments = Set(read.segments.map { "\($0.name) \($0.fileSize)" })
        check("segments", written.segments.map { "\($0.name) \($0.fileSize)" }.filter { !segments.contains($0) }, [])
        let sections = Set(read.sections.map { "\($0.fullName) \($0.size)" })
        check("sections", written.sections.map { "\($0.fullName) \($0.size)" }.filter { !sections.contains($0) }, [])
        return found
    }

    private static func merged(_ entries: [(path: String, values: [String: String])]) -> [String: [String: String]] {
        var merged: [String: [String: String]] = [:]
        for (path, values) in entries { merged[path, default: [:]].merge(values) { $1 } }
        return merged
    }

    private static func profiles(_ contents: BundleContents) -> [String: ProvisioningProfile] {
        Dictionary(contents.profiles.map { ($0.path, $0.profile) }) { $1 }
    }

    private static func dsyms(_ contents: BundleContents) -> [String: [String]] {
        Dictionary(contents.debugSymbols.map { ($0.path, $0.uuids.map { "\($0.architecture) \($0.uuid)" }) }) { $1 }
    }
}
