import BinaryInspect
import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore

/// Reads one Android artifact completely into `AndroidArtifact`: its manifests (binary XML in an
/// APK, aapt2's protobuf XML in an App Bundle, text in an AAR), `BundleConfig.pb`, and every
/// native library — inflated from the zip once, its ELF headers read as the loader reads them and
/// its contents put through the leak rules in the same pass. Findings and errors name the entry
/// inside the artifact (`app.aab/base/lib/arm64-v8a/libapp.so`); an entry that cannot be read is
/// one error and the rest is still checked. An artifact with nothing to check (a zip without a
/// manifest, a folder without libraries) is an input error.
struct AndroidWalker {
    let inspector: BinaryInspector

    func read(path: String, kind: AndroidArtifactKind) -> (artifact: AndroidArtifact?, result: CheckResult) {
        var result = CheckResult(filesScanned: 1)
        var artifact = AndroidArtifact(root: path, kind: kind)
        if kind == .library {
            do throws(InputError) {
                let bytes = try inspector.source.opening(path) { path throws(InputError) in
                    try FileBytes.map(path: path)
                }
                return readLibrary(mapped: bytes, at: path)
            } catch {
                result.inputErrors.append(error)
                return (artifact, result)
            }
        }
        let source: any BundleSource
        let reopen: @Sendable () throws(InputError) -> any BundleSource
        var offsets: [String: UInt64] = [:]
        let files = inspector.source
        if kind.isZip {
            do throws(InputError) {
                source = try files.opening(path) { path throws(InputError) in try ZipBundleSource(path: path) }
            } catch {
                result.inputErrors.append(error)
                return (nil, result)
            }
            reopen = { () throws(InputError) -> any BundleSource in
                let own = try files.opening(path) { path throws(InputError) in try ZipBundleSource(path: path) }
                _ = own.files()
                return own
            }
            if kind == .apk, let file = try? files.opening(path, { RandomAccessBytes.file($0) }) {
                offsets = ZipDataOffsets.storedEntries(in: file) { $0.hasSuffix(".so") }
            }
        } else {
            source = DirectoryBundleSource(root: path, source: files)
            reopen = { DirectoryBundleSource(root: path, source: files) }
        }
        read(source, reopen: reopen, into: &artifact, offsets: offsets, result: &result)
        result.inputErrors += problems(of: artifact)
        return (artifact, result)
    }

    /// A native library entry found in the listing, read once the other entries are.
    private struct PendingLibrary: Sendable {
        var entry: BundleEntry
        var library: NativeLibrary
    }

    /// Every entry of `source` into the artifact; entries of an APK set's APKs under the APK's
    /// path. Manifests and configuration are read first, in listing order; the libraries then,
    /// on every core, each worker through its own `reopen`ed source (a zip reader reads one entry
    /// at a time), or one after another where there is none (an APK inside an APK set).
    private func read(
        _ source: any BundleSource, reopen: (@Sendable () throws(InputError) -> any BundleSource)?,
        into artifact: inout AndroidArtifact, offsets: [String: UInt64], prefix: String = "",
        result: inout CheckResult
    ) {
        let (entries, errors) = source.files()
        result.inputErrors += errors
        artifact.entrySizes.merge(EntrySize.byPath(entries, under: prefix)) { _, inner in inner }
        inspector.progress?.begin("reading \(source.root.split(separator: "/").last ?? "")", total: entries.count)
        var pending: [PendingLibrary] = []
        for entry in entries {
            let path = prefix + entry.path
            artifact.files.append(path)
            if let (module, abi) = AndroidLayout.library(at: path, in: artifact.kind) {
                var library = NativeLibrary(path: path, module: module, abi: abi, elf: nil)
                if artifact.kind.isZip {
                    library.storage = offsets[entry.path].map { .stored(dataOffset: $0) } ?? .deflated
                }
                pending.append(PendingLibrary(entry: entry, library: library))
                continue
            }
            defer { inspector.progress?.advance() }
            do throws(InputError) {
                if let module = AndroidLayout.manifestModule(at: path, in: artifact.kind) {
                    let bytes = try source.contents(of: entry, limit: EntryLimits.metadata)
                    let manifest = try decodeManifest(
                        bytes.array, kind: artifact.kind, display: source.displayPath(entry.path))
                    artifact.manifests.append(.init(path: path, module: module, manifest: manifest))
                } else if artifact.kind == .aab, path == "BundleConfig.pb" {
                    let bytes = try source.contents(of: entry, limit: EntryLimits.metadata)
                    do throws(ManifestError) {
                        artifact.bundleConfig = try ProtoXMLReader.bundleConfig(bytes.array)
                    } catch {
                        throw InputError(path: source.displayPath(entry.path), message: error.message)
                    }
                } else if artifact.kind == .apks, prefix.isEmpty, entry.path.hasSuffix(".apk") {
                    // One copy of the APK serves its zip reader and its entry offsets alike (made
                    // while the inflated bytes are still held).
                    let bytes = try source.contents(of: entry, limit: EntryLimits.binary)
                    let data = bytes.data
                    let inner = try ZipBundleSource(data: data, root: source.displayPath(entry.path))
                    let innerOffsets = ZipDataOffsets.storedEntries(in: .memory(data)) { $0.hasSuffix(".so") }
                    read(
                        inner, reopen: nil, into: &artifact, offsets: innerOffsets, prefix: entry.path + "/",
                        result: &result)
                }
            } catch {
                result.inputErrors.append(error)
            }
        }
        for (library, outcome) in readLibraries(pending, from: source, reopen: reopen) {
            artifact.libraries.append(library)
            result.merge(outcome)
        }
    }

    /// The pending libraries, in listing order, each with what reading it found.
    private func readLibraries(
        _ pending: [PendingLibrary], from source: any BundleSource,
        reopen: (@Sendable () throws(InputError) -> any BundleSource)?
    ) -> [(NativeLibrary, CheckResult)] {
        guard let reopen, pending.count > 1 else {
            return pending.map { readLibrary($0, from: source) }
        }
        let workers = min(activeProcessorCount, pending.count)
        let stripes = Array(0..<workers).parallelMap { stripe -> [(Int, NativeLibrary, CheckResult)] in
            let mine = Array(stride(from: stripe, to: pending.count, by: workers))
            do throws(InputError) {
                let own = try reopen()
                return mine.map { index in
                    let (library, outcome) = readLibrary(pending[index], from: own)
                    return (index, library, outcome)
                }
            } catch {
                return mine.map { (($0), pending[$0].library, CheckResult(inputErrors: [error])) }
            }
        }
        return stripes.joined().sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    }

    private func readLibrary(_ pending: PendingLibrary, from source: any BundleSource) -> (NativeLibrary, CheckResult) {
        defer { inspector.progress?.advance() }
        do throws(InputError) {
            let bytes = try source.contents(of: pending.entry, limit: EntryLimits.binary)
            return reading(pending.library, from: bytes, display: source.displayPath(pending.entry.path))
        } catch {
            return (pending.library, CheckResult(inputErrors: [error]))
        }
    }

    /// `library` with what its bytes say, and what reading them found.
    private func reading(_ library: NativeLibrary, from bytes: FileBytes, display: String) -> (
        NativeLibrary, CheckResult
    ) {
        var library = library
        var result = CheckResult()
        library.elf = readLibrary(bytes, display: display, at: library.path, result: &result)
        return (library, result)
    }

    /// The library at `path` (`arm64-v8a/libapp.so`) of the folder of ABI folders at `root`, from
    /// bytes the caller read (the audit's read pass), read as `read` reads the folder's own: nil
    /// when the path is not one of a folder's libraries.
    func readFolderLibrary(_ bytes: FileBytes, at path: String, root: String) -> FolderLibrary? {
        guard let (module, abi) = AndroidLayout.library(at: path, in: .libraryFolder) else { return nil }
        let (library, result) = reading(
            NativeLibrary(path: path, module: module, abi: abi, elf: nil), from: bytes, display: "\(root)/\(path)")
        return FolderLibrary(library: library, result: result, size: UInt64(bytes.count))
    }

    /// The folder of ABI folders at `root` made of libraries read one by one
    /// (`readFolderLibrary`): the artifact `read` makes of the folder, and what reading it found.
    func folder(at root: String, libraries: [FolderLibrary]) -> (artifact: AndroidArtifact, result: CheckResult) {
        var result = CheckResult(filesScanned: 1)
        var artifact = AndroidArtifact(root: root, kind: .libraryFolder)
        for read in libraries.sorted(by: { $0.library.path < $1.library.path }) {
            artifact.files.append(read.library.path)
            artifact.entrySizes[read.library.path] = EntrySize(onDisk: read.size)
            artifact.libraries.append(read.library)
            result.merge(read.result)
        }
        result.inputErrors += problems(of: artifact)
        return (artifact, result)
    }

    /// A library on its own (named, or outside any ABI folder), from its bytes mapped once.
    func readLibrary(mapped bytes: FileBytes, at path: String) -> (artifact: AndroidArtifact, result: CheckResult) {
        var result = CheckResult(filesScanned: 1)
        var artifact = AndroidArtifact(root: path, kind: .library)
        artifact.entrySizes = ["": EntrySize(onDisk: UInt64(bytes.count))]
        let folder = path.split(separator: "/").dropLast().last
        let library = NativeLibrary(
            path: "", abi: folder.flatMap(AndroidABI.init(folder:)),
            elf: readLibrary(bytes, display: path, at: "", result: &result))
        artifact.libraries = [library]
        return (artifact, result)
    }

    /// The loader's view of a library and the leak rules' findings on it, from the one copy of
    /// its bytes. A library whose section headers the loader refuses (a finding of
    /// `android-elf-refused`) is not read further: its sections cannot be trusted.
    private func readLibrary(_ bytes: FileBytes, display: String, at path: String, result: inout CheckResult)
        -> ELFLoadFacts?
    {
        let facts: ELFLoadFacts
        do throws(InputError) {
            facts = try ELFSupport.loadFacts(of: bytes, origin: ImageOrigin(path: display))
        } catch {
            result.inputErrors.append(error)
            return nil
        }
        switch facts.sectionHeaderProblem {
        case nil, .missing?:
            do throws(InputError) {
                let file = try BinaryFile(storage: bytes, path: display)
                result.merge(inspector.inspect(file, at: path).result)
            } catch {
                result.inputErrors.append(error)
            }
        case .entrySize?, .namesIndex?, .outsideFile?:
            break
        }
        return facts
    }

    /// The manifest in whichever encoding it is: binary XML, text, or (in a bundle) protobuf.
    private func decodeManifest(_ bytes: [UInt8], kind: AndroidArtifactKind, display: String) throws(InputError)
        -> AndroidManifest
    {
        do throws(ManifestError) {
            let root: ManifestElement
            if BinaryXMLReader.isBinaryXML(bytes) {
                root = try BinaryXMLReader.read(bytes)
            } else if Self.looksLikeText(bytes) {
                root = try TextXMLReader.read(bytes)
            } else if kind == .aab {
                root = try ProtoXMLReader.read(bytes)
            } else {
                throw ManifestError("neither binary XML nor text XML")
            }
            return try AndroidManifest(root)
        } catch {
            throw InputError(path: display, message: "unreadable AndroidManifest.xml: \(error.message)")
        }
    }

    /// Text XML starts with `<`, after an optional byte-order mark and blanks.
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// Why an artifact has nothing to check: a release gate must not pass it for want of input.
    private func problems(of artifact: AndroidArtifact) -> [InputError] {
        let root = artifact.root
        switch artifact.kind {
        case .apk, .aar:
            guard artifact.manifests.isEmpty, !artifact.files.contains("AndroidManifest.xml") else { return [] }
            return [
                InputError(
                    path: root,
                    message: "no AndroidManifest.xml: not an \(artifact.kind == .apk ? "APK" : "AAR"), nothing checked")
            ]
        case .aab:
            guard artifact.manifests.isEmpty,
                !artifact.files.contains(where: { $0.hasSuffix("/manifest/AndroidManifest.xml") })
            else { return [] }
            return [
                InputError(
                    path: root,
                    message:
                        "no module manifest (base/manifest/AndroidManifest.xml): not an App Bundle, nothing checked")
            ]
        case .apks:
            guard artifact.manifests.isEmpty,
                !artifact.files.contains(where: { $0.hasSuffix(".apk/AndroidManifest.xml") })
            else { return [] }
            return [InputError(path: root, message: "no APK with a manifest: not an APK set, nothing checked")]
        case .libraryFolder:
            guard artifact.libraries.isEmpty else { return [] }
            return [
                InputError(
                    path: root, message: "no native library in an ABI folder (arm64-v8a/libapp.so): nothing checked")
            ]
        case .library:
            return []
        }
    }
}
