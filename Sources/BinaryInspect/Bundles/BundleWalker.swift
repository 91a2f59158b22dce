import ShipcheckCore

/// Checks one bundle or archive completely: every binary in it (main executables, frameworks,
/// plug-ins, watch apps, nested frameworks — found by their magic bytes, not by where Xcode
/// usually puts them) through the leak rules, its metadata (Info.plist files, provisioning
/// profiles, the entitlements in code signatures) read into `BundleContents`, then the bundle
/// rules. Findings and errors name the file inside the bundle (`App.ipa/Payload/App.app/App`);
/// an entry that cannot be read is one error and the rest of the bundle is still checked.
struct BundleWalker {
    let inspector: BinaryInspector
    let patterns: BinaryInspector.Patterns

    /// The largest binary read out of a zip (it is inflated into memory whole).
    static let binaryLimit = 1 << 30
    /// Property lists and profiles are small; a huge one is not what it claims to be.
    static let metadataLimit = 8 << 20

    func inspect(path: String, kind: BundleKind) -> CheckResult {
        var result = CheckResult(filesScanned: 1)
        let source: any BundleSource
        if FileKind.of(path) == .directory {
            source = DirectoryBundleSource(root: path)
        } else {
            do throws(InputError) { source = try ZipBundleSource(path: path) } catch {
                result.inputErrors.append(error)
                return result
            }
        }
        let (entries, errors) = source.files()
        result.inputErrors += errors
        var bundle = BundleContents(root: path, kind: kind)
        let shipped = entries.filter { !BundleKind.isSkipped($0.path) }
        bundle.files = shipped.map(\.path)
        inspector.progress?.begin("reading \(path.split(separator: "/").last ?? "")", total: shipped.count)
        for entry in shipped {
            defer { inspector.progress?.advance() }
            do throws(InputError) {
                try read(entry, from: source, into: &bundle, result: &result)
            } catch {
                result.inputErrors.append(error)
            }
        }
        bundle.distribution = distribution(of: path, kind: kind)
        result.findings += check(bundle)
        return result
    }

    /// Runs the bundle rules the configuration leaves on, at their default severities (the
    /// configuration's are applied to every check's findings in one place).
    func check(_ bundle: BundleContents) -> [Finding] {
        inspector.bundleRules.flatMap { rule in
            rule.check(bundle, BundleRuleContext(severity: rule.description.defaultSeverity, resourcePatterns: patterns.resource))
        }
    }

    private func read(_ entry: BundleEntry, from source: any BundleSource, into bundle: inout BundleContents, result: inout CheckResult) throws(InputError) {
        let name = entry.path.split(separator: "/").last ?? ""
        let display = source.displayPath(entry.path)
        if name == "embedded.mobileprovision" || name == "embedded.provisionprofile" {
            let bytes = try source.contents(of: entry, limit: Self.metadataLimit)
            do throws(PropertyListError) {
                bundle.profiles.append((entry.path, try ProvisioningProfile.parse(bytes.bytes)))
            } catch {
                throw InputError(path: display, message: error.message)
            }
        } else if name == "Info.plist" {
            let bytes = try source.contents(of: entry, limit: Self.metadataLimit)
            let plist: PropertyListSummary
            do throws(PropertyListError) { plist = try PropertyListSummary.parse(bytes.bytes, what: "Info.plist") } catch {
                throw InputError(path: display, message: error.message)
            }
            if bundle.kind == .xcframework, entry.path == "Info.plist" { result.inputErrors += missingLibraries(plist, in: bundle, display: display) }
        } else if source.looksLikeBinary(entry) {
            let file = try BinaryFile(storage: source.contents(of: entry, limit: Self.binaryLimit), path: display, architecture: inspector.architecture)
            result.merge(inspector.inspect(file, patterns: patterns))
            try addEntitlements(of: file, at: entry.path, into: &bundle)
        }
    }

    /// The entitlements of each signed image (universal slices usually carry the same ones).
    private func addEntitlements(of file: BinaryFile, at path: String, into bundle: inout BundleContents) throws(InputError) {
        var seen: Set<[String: String]> = []
        for image in file.images {
            guard let signature = image.codeSignature else { continue }
            do throws(PropertyListError) {
                if let entitlements = try CodeSignature.entitlements(in: signature), seen.insert(entitlements.values).inserted {
                    bundle.entitlements.append((path, entitlements.values))
                }
            } catch {
                throw InputError(path: image.displayName, message: error.message)
            }
        }
    }

    /// An xcframework's `AvailableLibraries` entries whose folder is not in it.
    private func missingLibraries(_ plist: PropertyListSummary, in bundle: BundleContents, display: String) -> [InputError] {
        let libraries = plist.dictionaryArrays["AvailableLibraries"] ?? []
        if libraries.isEmpty { return [InputError(path: display, message: "xcframework Info.plist lists no AvailableLibraries")] }
        return libraries.compactMap { library in
            guard let identifier = library["LibraryIdentifier"], let path = library["LibraryPath"] else {
                return InputError(path: display, message: "an AvailableLibraries entry has no LibraryIdentifier or LibraryPath")
            }
            let folder = "\(identifier)/\(path)"
            guard !bundle.files.contains(where: { $0 == folder || $0.hasPrefix(folder + "/") }) else { return nil }
            return InputError(path: display, message: "AvailableLibraries lists \(folder), which is not in the xcframework")
        }
    }

    /// `bundle.distribution` in the configuration, else the `method` of the ExportOptions.plist
    /// that `xcodebuild -exportArchive` writes beside an exported .ipa, else the App Store.
    private func distribution(of path: String, kind: BundleKind) -> BundleContents.Distribution {
        if let configured = inspector.configuration.bundleDistribution, let method = ProvisioningProfile.Kind(exportMethod: configured) {
            return .init(method: method, source: "bundle.distribution in \(inspector.configuration.sourcePath ?? Configuration.fileName)")
        }
        guard kind == .ipa else { return .assumedAppStore }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let options = (folder.isEmpty ? "" : folder + "/") + "ExportOptions.plist"
        guard let bytes = try? SafeFileReader.read(options, sizeLimit: Self.metadataLimit),
              let plist = try? PropertyListSummary.parse(bytes, what: "ExportOptions.plist"),
              let exported = plist.values["method"], let method = ProvisioningProfile.Kind(exportMethod: exported) else { return .assumedAppStore }
        return .init(method: method, source: "method '\(exported)' in \(options)")
    }
}

extension ProvisioningProfile.Kind {
    /// An export method as ExportOptions.plist (or `bundle.distribution`) names it, old and new
    /// names alike (Xcode 15.3 renamed app-store to app-store-connect, ad-hoc to release-testing,
    /// development to debugging).
    public init?(exportMethod: String) {
        switch exportMethod {
        case "app-store", "app-store-connect": self = .appStore
        case "ad-hoc", "release-testing": self = .adHoc
        case "development", "debugging": self = .development
        // Both provision every device (`ProvisionsAllDevices`): in-house and macOS Developer ID.
        case "enterprise", "developer-id": self = .enterprise
        default: return nil
        }
    }
}
