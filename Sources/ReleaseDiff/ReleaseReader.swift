import AndroidArtifacts
import BinaryInspect
import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore

/// Reads one release artifact for a comparison: every single-artifact rule runs on it in the
/// same read (as `shipcheck binary` runs them), and its model becomes `ReleaseFacts`.
package struct ReleaseReader: Sendable {
    let inspector: BinaryInspector
    let android: AndroidInspector

    package init(inspector: BinaryInspector, android: AndroidInspector) {
        self.inspector = inspector
        self.android = android
    }

    /// One side of a comparison: its facts (nil when it could not be read) and what its rules
    /// found, with the errors.
    package struct Side: Sendable {
        package var facts: ReleaseFacts?
        package var result: CheckResult
    }

    /// Reads an Apple bundle or `.ipa`, an Android artifact (`.apk`, `.aab`, `.apks`, `.aar`, a
    /// `.so` or a folder of ABI folders), or a single Mach-O or ELF file. Anything else — a
    /// folder of several artifacts, a file that is none — is an input error naming it.
    package func read(_ path: String) -> Side {
        guard let kind = FileKind.of(path) else {
            return Side(
                result: CheckResult(inputErrors: [InputError(path: path, message: "no such file or directory")]))
        }
        if kind == .symlink {
            switch ArtifactPaths.followingNamedLink(path) {
            case .success(let target): return read(target)
            case .failure(let error): return Side(result: CheckResult(inputErrors: [error]))
            }
        }
        // A FIFO, socket or device is never opened (reading one would block or never end).
        guard kind == .regular || kind == .directory else {
            return Side(
                result: CheckResult(inputErrors: [
                    InputError(path: path, message: "not a regular file or directory (\(kind.rawValue))")
                ]))
        }
        if android.claims(path, kind: kind) {
            let (artifact, result) = android.read(path, with: inspector)
            return Side(facts: artifact.map(ReleaseFacts.init(android:)), result: result)
        }
        if let bundle = BundleKind(path: path), bundle.isArtifact, kind == .directory || bundle == .ipa {
            let (contents, result) = inspector.readAndCheckBundle(at: path)
            return Side(facts: contents.map(ReleaseFacts.init(apple:)), result: result)
        }
        guard kind == .regular else { return Self.notAnArtifact(path) }
        return readBinary(path)
    }

    private static func notAnArtifact(_ path: String) -> Side {
        Side(
            result: CheckResult(inputErrors: [
                InputError(
                    path: path,
                    message:
                        "not a release artifact shipcheck compares (an Apple bundle or .ipa, an Android artifact, a Mach-O or ELF file)"
                )
            ]))
    }

    /// A single binary: mapped once (its magic read from the mapping), checked as `binary`
    /// checks it, its facts from the Mach-O model or the ELF headers.
    private func readBinary(_ path: String) -> Side {
        let storage: FileBytes
        let file: BinaryFile
        do throws(InputError) {
            storage = try inspector.source.opening(path) { path throws(InputError) in try FileBytes.map(path: path) }
        } catch {
            return Side(result: CheckResult(inputErrors: [error], filesScanned: 1))
        }
        guard BinaryFile.looksLikeBinary(storage.whole.prefix(8).array) else { return Self.notAnArtifact(path) }
        if let (artifact, result) = android.read(mapped: storage, at: path, with: inspector) {
            return Side(facts: ReleaseFacts(android: artifact), result: result)
        }
        do throws(InputError) {
            file = try BinaryFile(storage: storage, path: path)
        } catch {
            return Side(result: CheckResult(inputErrors: [error], filesScanned: 1))
        }
        let (contents, result) = inspector.readAndCheckAlone(file)
        if let contents { return Side(facts: ReleaseFacts(apple: contents), result: result) }
        guard let elf = try? ELFSupport.loadFacts(of: storage, origin: ImageOrigin(path: path)) else {
            var failed = result
            if failed.inputErrors.isEmpty {
                failed.inputErrors.append(
                    InputError(
                        path: path, message: "holds no Mach-O or ELF image shipcheck compares (a static archive?)"))
            }
            return Side(result: failed)
        }
        return Side(facts: ReleaseFacts(elf: elf, path: path, size: UInt64(storage.count)), result: result)
    }
}
