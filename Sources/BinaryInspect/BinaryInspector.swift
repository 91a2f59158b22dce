import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore

/// `shipcheck binary`'s engine: finds binaries (ELF, Mach-O, universal files, static archives)
/// under the given paths and reports the preview, test, mock and fixture code that shipped in
/// them. `shipcheck audit` calls it too.
package struct BinaryInspector: Sendable {
    package let configuration: Configuration
    /// Only this slice of universal files (`--arch arm64`); nil: every slice.
    package let architecture: String?
    /// The binary rules the configuration leaves on (run on each image).
    private let rules: [any BinaryRule.Type]
    /// The bundle rules the configuration leaves on (run once per bundle).
    let bundleRules: [any BundleRule.Type]
    /// Where the run reports how far it is: artifacts done, then a bundle's files.
    package var progress: ScanProgress?
    /// The readers of other platforms' artifacts (Android's), which claim files and folders
    /// before the Apple and plain-binary readers look at them.
    package var families: [any ArtifactFamily] = []
    /// Where the readers open the files they read (the scan's source, in `audit`).
    package var source: any FileSource = DiskFileSource()

    /// `rules`: the registry's rules; the inspector runs the binary and bundle rules among them.
    package init(configuration: Configuration, rules: [any Rule.Type], architecture: String? = nil) {
        self.configuration = configuration
        self.rules = rules.reading(.binary, as: (any BinaryRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
        bundleRules = rules.reading(.bundle, as: (any BundleRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
        self.architecture = architecture
    }

    /// The rules among `rules` the inspector runs (for reports' rule lists).
    package static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.inputs.contains(.binary) || $0.inputs.contains(.bundle) }
    }

    /// Whether the rule is one of the bundle rules (their examples are `BundleContents(example:)`).
    package static func isBundleRule(_ rule: any Rule.Type) -> Bool { rule.inputs.contains(.bundle) }

    /// Audits files (binaries or archives), Apple bundles and `.ipa` files (walked whole), and
    /// directories (searched for binaries by magic and for bundles by extension).
    package func run(paths: [String]) -> CheckResult {
        var result = CheckResult()
        var artifacts: [Artifact] = []
        var seen: Set<Artifact> = []
        var walks: [(folder: String, found: [Artifact])] = []
        for path in paths {
            let (found, errors, isWalk) = self.artifacts(under: path)
            artifacts += found.filter { seen.insert($0).inserted }
            result.inputErrors += errors
            if isWalk { walks.append((path, found)) }
        }
        progress?.begin("auditing artifacts", total: artifacts.count)
        let outcomes = artifacts.parallelMap { artifact -> CheckResult? in
            defer { progress?.advance() }
            switch artifact {
            case .bundle(let path, let kind):
                return BundleWalker(inspector: self).inspect(path: path, kind: kind)
            case .foreign(let path, let family):
                return families[family].inspect(path, with: self)
            case .binary(let path, let found):
                return inspectBinary(at: path, found: found)
            }
        }
        var audited: Set<Artifact> = []
        for (artifact, outcome) in zip(artifacts, outcomes) {
            guard let outcome else { continue }
            audited.insert(artifact)
            result.merge(outcome)
        }
        // A release gate pointed at the wrong folder (or at a folder named like a binary) must
        // not pass for want of anything to audit.
        for walk in walks where !walk.found.contains(where: audited.contains) {
            result.inputErrors.append(
                InputError(
                    path: walk.folder,
                    message:
                        "directory holds no ELF files, Mach-O files, static archives, Apple bundles or Android artifacts"
                ))
        }
        return result
    }

    /// A binary file, mapped once: a family's when its bytes say so, else audited on its own.
    /// `found`: met in a directory walk, where a file is a binary only if it starts as one (nil
    /// when it does not: it is not audited, and no error); a named file that is none is an error.
    private func inspectBinary(at path: String, found: Bool) -> CheckResult? {
        let bytes: FileBytes
        do throws(InputError) {
            bytes = try source.opening(path) { path throws(InputError) in try FileBytes.map(path: path) }
        } catch {
            // A walked file that cannot be mapped (empty, unreadable) is no binary of the walk's.
            return found ? nil : CheckResult(inputErrors: [error], filesScanned: 1)
        }
        if found, !BinaryFile.looksLikeBinary(bytes.whole.prefix(8).array) { return nil }
        for family in families {
            if let result = family.inspect(mapped: bytes, at: path, with: self) { return result }
        }
        do throws(InputError) {
            return inspectAlone(try BinaryFile(storage: bytes, path: path, architecture: architecture))
        } catch {
            // Starts as a binary does, and is a damaged one: an error, named or walked.
            return CheckResult(inputErrors: [error], filesScanned: 1)
        }
    }

    /// Reads a bundle or `.ipa` into the model the bundle rules check (without checking it):
    /// nil when it cannot be opened; the result holds the leak rules' findings and the errors.
    package func readBundle(at path: String) -> (contents: BundleContents?, result: CheckResult) {
        guard let kind = BundleKind(path: path) else {
            return (
                nil,
                CheckResult(inputErrors: [
                    InputError(path: path, message: "not an Apple bundle or .ipa (by its extension)")
                ])
            )
        }
        return BundleWalker(inspector: self).read(path: path, kind: kind)
    }

    /// Runs the bundle rules on already read contents (rule examples, tests, the fuzz target).
    package func check(_ bundle: BundleContents) -> [Finding] {
        BundleWalker(inspector: self).check(bundle)
    }

    /// Runs the rules on already decoded contents (rule examples, tests).
    package func check(_ contents: BinaryContents) -> [Finding] {
        rules.flatMap { rule in
            rule.check(
                contents, BinaryRuleContext(severity: rule.description.defaultSeverity, configuration: configuration))
        }
    }

    /// Audits a binary already opened (a file inside a bundle or zip, read by the caller); its
    /// findings and errors name the path the caller gave it.
    package func inspect(_ file: BinaryFile) -> CheckResult {
        inspect(file, at: "").result
    }

    /// Runs the leak rules on every image of the file and returns, with their findings, the
    /// pre-flight model of its Mach-O images (`path`: the file inside its artifact); nil when
    /// the file holds no Mach-O image (ELF).
    package func inspect(_ file: BinaryFile, at path: String) -> (result: CheckResult, image: BundleImage?) {
        var result = CheckResult(inputErrors: file.errors, filesScanned: 1)
        var slices: [ImageSlice] = []
        // One member or slice that cannot be decoded does not hide the others' findings.
        for image in file.images {
            do throws(InputError) {
                let (contents, slice) = try BinaryContentsReader.readWithSlice(image)
                result.findings += check(contents)
                if let slice { slices.append(slice) }
            } catch {
                result.inputErrors.append(error)
            }
        }
        for architecture in file.unreadArchitectures {
            var slice = ImageSlice(architecture: architecture)
            slice.isRead = false
            slices.append(slice)
        }
        return (result, slices.isEmpty ? nil : BundleImage(path: path, slices: slices))
    }

    /// A binary given on its own read into a model of its one image (kind `.binary`, its size
    /// the one entry ""), with the leak rules' findings; no model when it holds no Mach-O image.
    package func readAlone(_ file: BinaryFile) -> (contents: BundleContents?, result: CheckResult) {
        let (result, image) = inspect(file, at: "")
        guard let image else { return (nil, result) }
        var bundle = BundleContents(root: file.path, kind: .binary)
        bundle.images = [image]
        bundle.entrySizes = ["": EntrySize(onDisk: file.size)]
        bundle.distribution = BundleWalker.configuredDistribution(configuration) ?? .assumedAppStore
        bundle.assembleBundles()
        return (bundle, result)
    }

    /// A binary given on its own: every rule, as `readAndCheckAlone` runs them.
    private func inspectAlone(_ file: BinaryFile) -> CheckResult {
        readAndCheckAlone(file).result
    }

    /// Reads a binary given on its own and runs every rule on it: the leak rules, then the bundle
    /// rules that read facts a single Mach-O file holds (`BundleRule.checksSingleBinaries`), on
    /// the model of its one image, which it hands back (nil when the file holds no Mach-O image).
    package func readAndCheckAlone(_ file: BinaryFile) -> (contents: BundleContents?, result: CheckResult) {
        var (model, result) = readAlone(file)
        guard let bundle = model else { return (nil, result) }
        for var finding in BundleWalker(inspector: self).check(bundle) {
            // With --arch the file is that one slice, and every finding says so.
            if let architecture, case .binary(var place) = finding.location {
                place.architecture = architecture
                finding.location = .binary(place)
            }
            result.findings.append(finding)
        }
        return (bundle, result)
    }

    /// Reads a bundle or `.ipa` and runs every rule on it, as `run` does for one bundle, and
    /// hands back the model it checked (nil when it could not be opened).
    package func readAndCheckBundle(at path: String) -> (contents: BundleContents?, result: CheckResult) {
        var (contents, result) = readBundle(at: path)
        if let contents { result.findings += check(contents) }
        return (contents, result)
    }

    /// What `run` audits: a binary file, or a bundle walked whole.
    enum Artifact: Hashable, Sendable {
        /// A file named (`found` false) or met in a directory walk (`found`: audited only if its
        /// bytes start as a binary's).
        case binary(String, found: Bool)
        case bundle(String, BundleKind)
        /// An artifact one of `families` reads (by its index there).
        case foreign(String, Int)
    }

    /// A link named on the command line is followed to what it names. A bundle or `.ipa` is
    /// walked whole; another file argument is taken as given (a file that
    /// is not a binary is an error), with the SwiftPM resource bundles beside it; a directory is
    /// walked (without git: build products are usually ignored), its bundles (the outermost of
    /// nested ones) checked whole and its other files left to be picked by magic when they are
    /// mapped (`isWalk`: `run` reports a directory where none is a binary).
    private func artifacts(under path: String) -> (artifacts: [Artifact], errors: [InputError], isWalk: Bool) {
        let kindOfFile = FileKind.of(path)
        if kindOfFile == .symlink {
            switch ArtifactPaths.followingNamedLink(path) {
            case .success(let target): return artifacts(under: target)
            case .failure(let error): return ([], [error], false)
            }
        }
        if let kindOfFile, let family = families.firstIndex(where: { $0.claims(path, kind: kindOfFile) }) {
            return ([.foreign(path, family)], [], false)
        }
        if let bundle = BundleKind(path: path), bundle.isArtifact,
            kindOfFile == .directory || (kindOfFile == .regular && bundle == .ipa)
        {
            return ([.bundle(path, bundle)], [], false)
        }
        switch kindOfFile {
        case nil: return ([], [InputError(path: path, message: "no such file or directory")], false)
        case .directory?:
            let enumeration = FileEnumerator(root: path, scope: configuration.scope, useGit: false).enumerate()
            var found: [Artifact] = []
            var bundles: Set<Artifact> = []
            for file in enumeration.files {
                if let (root, family) = foreignArtifact(holding: file.relativePath, at: file.path) {
                    let artifact = Artifact.foreign(path == "." ? root : "\(path)/\(root)", family)
                    if bundles.insert(artifact).inserted { found.append(artifact) }
                    continue
                }
                let components = file.relativePath.split(separator: "/")
                // A file inside a bundle, or an .ipa: the (outermost) bundle is walked whole.
                if let index = components.firstIndex(where: { BundleKind(path: String($0))?.isArtifact == true }),
                    let kind = BundleKind(path: String(components[index])), index < components.count - 1 || kind == .ipa
                {
                    let inner = components[...index].joined(separator: "/")
                    let bundle = Artifact.bundle(path == "." ? inner : "\(path)/\(inner)", kind)
                    if bundles.insert(bundle).inserted { found.append(bundle) }
                } else {
                    found.append(.binary(file.path, found: true))
                }
            }
            return (found, enumeration.errors, true)
        default:
            return ([.binary(path, found: false)] + resourceBundles(beside: path), [], false)
        }
    }

    /// The artifact of one of `families` a listed file belongs to: its path relative to the walk.
    private func foreignArtifact(holding relativePath: String, at path: String) -> (root: String, family: Int)? {
        for (index, family) in families.enumerated() {
            if let root = family.artifactRoot(holding: relativePath, at: path) { return (root, index) }
        }
        return nil
    }

    /// SwiftPM's `<Package>_<Target>.resources` folders beside an executable (Linux builds).
    private func resourceBundles(beside path: String) -> [Artifact] {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let directory = folder.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.sorted().filter { $0.hasSuffix(".resources") }.compactMap { name in
            let bundle = directory == "." ? name : "\(directory)/\(name)"
            return FileKind.of(bundle) == .directory ? .bundle(bundle, .resources) : nil
        }
    }
}
