import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Checks one bundle or archive completely: every binary in it (main executables, frameworks,
/// plug-ins, watch apps, nested frameworks — found by their magic bytes, not by where Xcode
/// usually puts them) through the leak rules, its metadata (Info.plist files, privacy
/// manifests, provisioning profiles, the entitlements in code signatures) and every Mach-O
/// image's slices read into `BundleContents` (the pre-flight model, with the UUIDs of the dSYMs
/// beside them), then the bundle rules. Findings and errors name the file inside the bundle
/// (`App.ipa/Payload/App.app/App`); an entry that cannot be read is one error and the rest of
/// the bundle is still checked. An artifact with nothing to check (an .ipa without an app, an
/// app without its executable, an archive without a product) is an input error.
struct BundleWalker {
    let inspector: BinaryInspector

    func inspect(path: String, kind: BundleKind) -> CheckResult {
        var (bundle, result) = read(path: path, kind: kind)
        if let bundle { result.findings += check(bundle) }
        return result
    }

    /// Reads the whole bundle: the leak rules' findings on its binaries and the errors are in
    /// the result; the model is nil when the bundle could not be opened at all.
    func read(path: String, kind: BundleKind) -> (contents: BundleContents?, result: CheckResult) {
        var result = CheckResult(filesScanned: 1)
        let source: any BundleSource
        if FileKind.of(path) == .directory {
            source = DirectoryBundleSource(root: path, source: inspector.source)
        } else {
            do throws(InputError) {
                source = try inspector.source.opening(path) { path throws(InputError) in
                    try ZipBundleSource(path: path)
                }
            } catch {
                result.inputErrors.append(error)
                return (nil, result)
            }
        }
        let (entries, errors) = source.files()
        result.inputErrors += errors
        var bundle = BundleContents(root: path, kind: kind)
        let shipped = entries.filter { !BundleKind.isSkipped($0.path) }
        let debugSymbols = entries.filter { DebugSymbolsFile.isDWARFFile($0.path) }
        bundle.files = shipped.map(\.path)
        bundle.entrySizes = EntrySize.byPath(entries)
        inspector.progress?.begin(
            "reading \(path.split(separator: "/").last ?? "")", total: shipped.count + debugSymbols.count)
        for entry in shipped {
            defer { inspector.progress?.advance() }
            do throws(InputError) {
                try read(entry, from: source, into: &bundle, result: &result)
            } catch {
                result.inputErrors.append(error)
            }
        }
        for entry in debugSymbols {
            defer { inspector.progress?.advance() }
            do throws(InputError) {
                try readDebugSymbols(entry, from: source, into: &bundle)
            } catch {
                result.inputErrors.append(error)
            }
        }
        bundle.distribution = distribution(of: path, kind: kind)
        bundle.assembleBundles()
        result.inputErrors += NothingToCheck.problems(in: bundle)
        return (bundle, result)
    }

    /// Runs the bundle rules the configuration leaves on, at their default severities (the
    /// configuration's are applied to every check's findings in one place); on a single binary
    /// (kind `.binary`) only those that read one.
    func check(_ bundle: BundleContents) -> [Finding] {
        inspector.bundleRules.filter { bundle.kind != .binary || $0.checksSingleBinaries }.flatMap { rule in
            rule.check(
                bundle,
                BundleRuleContext(
                    severity: rule.description.defaultSeverity,
                    configuration: inspector.configuration))
        }
    }

    private func read(
        _ entry: BundleEntry, from source: any BundleSource, into bundle: inout BundleContents,
        result: inout CheckResult
    ) throws(InputError) {
        let name = entry.path.split(separator: "/").last ?? ""
        let display = source.displayPath(entry.path)
        if name == "embedded.mobileprovision" || name == "embedded.provisionprofile" {
            let bytes = try source.contents(of: entry, limit: EntryLimits.metadata)
            do throws(PropertyListError) {
                bundle.profiles.append((entry.path, try ProvisioningProfile.parse(bytes.array)))
            } catch {
                throw InputError(path: display, message: error.message)
            }
        } else if name == "Info.plist" || name.hasSuffix(".xcprivacy") {
            let bytes: FileBytes
            do throws(InputError) {
                bytes = try source.contents(of: entry, limit: EntryLimits.metadata)
            } catch  where name.hasSuffix(".xcprivacy") && error.message.hasPrefix("empty file") {
                // An empty manifest is an invalid one (a finding of the privacy rules), not an unreadable input.
                bundle.privacyManifests[entry.path] = .unreadable("the privacy manifest is empty")
                return
            }
            try bundle.addPropertyList(bytes.array, at: entry.path) { message throws(InputError) in
                throw InputError(path: display, message: message)
            }
            if bundle.kind == .xcframework, entry.path == "Info.plist", let plist = bundle.infoPlists[entry.path] {
                result.inputErrors += missingLibraries(PropertyListSummary(plist), in: bundle, display: display)
            }
        } else if let storage = try source.binaryContents(of: entry, limit: EntryLimits.binary) {
            let file = try BinaryFile(storage: storage, path: display, architecture: inspector.architecture)
            let (inspected, image) = inspector.inspect(file, at: entry.path)
            result.merge(inspected)
            if let image { bundle.images.append(image) }
            try addEntitlements(of: file, at: entry.path, into: &bundle)
        }
    }

    /// A dSYM's DWARF file: the UUID of each slice (nothing else of it is read). Large apps'
    /// dSYMs pass a gigabyte; where the source maps files, only their load commands are touched,
    /// so no size cap applies.
    private func readDebugSymbols(
        _ entry: BundleEntry, from source: any BundleSource, into bundle: inout BundleContents
    ) throws(InputError) {
        let limit = source.mapsContents ? Int.max : EntryLimits.binary
        let file = try BinaryFile(
            storage: source.contents(of: entry, limit: limit), path: source.displayPath(entry.path))
        if let error = file.errors.first { throw error }
        let uuids = file.images.compactMap { image -> (architecture: String, uuid: String)? in
            guard let image = image as? MachOImage, let uuid = image.uuidString else { return nil }
            return (image.origin.architecture ?? image.cpu, uuid)
        }
        bundle.debugSymbols.append(DebugSymbolsFile(path: entry.path, uuids: uuids))
    }

    /// The entitlements of each signed image (universal slices usually carry the same ones).
    private func addEntitlements(of file: BinaryFile, at path: String, into bundle: inout BundleContents)
        throws(InputError)
    {
        var seen: Set<[String: String]> = []
        for image in file.images {
            guard let signature = image.codeSignature else { continue }
            do throws(PropertyListError) {
                if let entitlements = try CodeSignature.entitlements(in: signature),
                    seen.insert(entitlements.values).inserted
                {
                    bundle.entitlements.append((path, entitlements.values))
                }
            } catch {
                throw InputError(path: image.displayName, message: error.message)
            }
        }
    }

    /// An xcframework's `AvailableLibraries` entries whose folder is not in it.
    private func missingLibraries(_ plist: PropertyListSummary, in bundle: BundleContents, display: String)
        -> [InputError]
    {
        let libraries = plist.dictionaryArrays["AvailableLibraries"] ?? []
        if libraries.isEmpty {
            return [InputError(path: display, message: "xcframework Info.plist lists no AvailableLibraries")]
        }
        return libraries.compactMap { library in
            guard let identifier = library["LibraryIdentifier"], let path = library["LibraryPath"] else {
                return InputError(
                    path: display, message: "an AvailableLibraries entry has no LibraryIdentifier or LibraryPath")
            }
            let folder = "\(identifier)/\(path)"
            guard !bundle.files.contains(where: { $0 == folder || $0.hasPrefix(folder + "/") }) else { return nil }
            return InputError(
                path: display, message: "AvailableLibraries lists \(folder), which is not in the xcframework")
        }
    }

    /// `bundle.distribution` in the configuration, else the `method` of the ExportOptions.plist
    /// that `xcodebuild -exportArchive` writes beside an exported .ipa, else the App Store.
    private func distribution(of path: String, kind: BundleKind) -> BundleContents.Distribution {
        if let configured = Self.configuredDistribution(inspector.configuration) { return configured }
        guard kind == .ipa else { return .assumedAppStore }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let options = (folder.isEmpty ? "" : folder + "/") + "ExportOptions.plist"
        guard let bytes = try? SafeFileReader.read(options, sizeLimit: EntryLimits.metadata),
            let plist = try? PropertyListSummary.parse(bytes, what: "ExportOptions.plist"),
            let exported = plist.values["method"], let method = ProvisioningProfile.Kind(exportMethod: exported)
        else { return .assumedAppStore }
        return .init(method: method, source: "method '\(exported)' in \(options)")
    }
}

extension BundleWalker {
    /// `bundle.distribution` in the configuration, when it sets one.
    static func configuredDistribution(_ configuration: Configuration) -> BundleContents.Distribution? {
        guard let method = configuration.settings(BundleSettings.self).distribution else { return nil }
        return .init(
            method: method, source: "bundle.distribution in \(configuration.sourcePath ?? Configuration.fileName)")
    }
}
