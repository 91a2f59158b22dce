import BinaryInspect
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
            readLooseLibrary(path, into: &artifact, result: &result)
            return (artifact, result)
        }
        let source: any BundleSource
        var offsets: [String: UInt64] = [:]
        if kind.isZip {
            do throws(InputError) { source = try ZipBundleSource(path: path) } catch {
                result.inputErrors.append(error)
                return (nil, result)
            }
            if kind == .apk, let file = RandomAccessBytes.file(path) {
                offsets = ZipDataOffsets.storedEntries(in: file) { $0.hasSuffix(".so") }
            }
        } else {
            source = DirectoryBundleSource(root: path)
        }
        read(source, into: &artifact, offsets: offsets, result: &result)
        result.inputErrors += problems(of: artifact)
        return (artifact, result)
    }

    /// Every entry of `source` into the artifact; entries of an APK set's APKs under the APK's path.
    private func read(
        _ source: any BundleSource, into artifact: inout AndroidArtifact, offsets: [String: UInt64],
        prefix: String = "",
        result: inout CheckResult
    ) {
        let (entries, errors) = source.files()
        result.inputErrors += errors
        inspector.progress?.begin("reading \(source.root.split(separator: "/").last ?? "")", total: entries.count)
        for entry in entries {
            defer { inspector.progress?.advance() }
            let path = prefix + entry.path
            artifact.files.append(path)
            do throws(InputError) {
                if let module = AndroidLayout.manifestModule(at: path, in: artifact.kind) {
                    let bytes = try source.contents(of: entry, limit: EntryLimits.metadata)
                    let manifest = try decodeManifest(
                        Array(bytes.bytes), kind: artifact.kind, display: source.displayPath(entry.path))
                    artifact.manifests.append(.init(path: path, module: module, manifest: manifest))
                } else if artifact.kind == .aab, path == "BundleConfig.pb" {
                    let bytes = try source.contents(of: entry, limit: EntryLimits.metadata)
                    do throws(ManifestError) {
                        artifact.bundleConfig = try ProtoXMLReader.bundleConfig(Array(bytes.bytes))
                    } catch {
                        throw InputError(path: source.displayPath(entry.path), message: error.message)
                    }
                } else if let (module, abi) = AndroidLayout.library(at: path, in: artifact.kind) {
                    let bytes = try source.contents(of: entry, limit: EntryLimits.binary)
                    var library = NativeLibrary(path: path, module: module, abi: abi, elf: nil)
                    if artifact.kind.isZip {
                        library.storage = offsets[entry.path].map { .stored(dataOffset: $0) } ?? .deflated
                    }
                    library.elf = readLibrary(bytes, display: source.displayPath(entry.path), at: path, result: &result)
                    artifact.libraries.append(library)
                } else if artifact.kind == .apks, prefix.isEmpty, entry.path.hasSuffix(".apk") {
                    let bytes = try source.contents(of: entry, limit: EntryLimits.binary)
                    let inner = try ZipBundleSource(bytes: bytes, root: source.displayPath(entry.path))
                    let innerOffsets = ZipDataOffsets.storedEntries(in: .memory(Array(bytes.bytes))) {
                        $0.hasSuffix(".so")
                    }
                    read(inner, into: &artifact, offsets: innerOffsets, prefix: entry.path + "/", result: &result)
                }
            } catch {
                result.inputErrors.append(error)
            }
        }
    }

    private func readLooseLibrary(_ path: String, into artifact: inout AndroidArtifact, result: inout CheckResult) {
        do throws(InputError) {
            let bytes = try FileBytes.map(path: path)
            let folder = path.split(separator: "/").dropLast().last
            let library = NativeLibrary(
                path: "", abi: folder.flatMap(AndroidABI.init(folder:)),
                elf: readLibrary(bytes, display: path, at: "", result: &result))
            artifact.libraries = [library]
        } catch {
            result.inputErrors.append(error)
        }
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
