import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore
import ZIPFoundation

/// An `.ipa` (a zip) read in place with ZIPFoundation: nothing is extracted to disk. Entries are
/// listed from the central directory; a binary entry is inflated into memory (its readers follow
/// offsets all over it, so it must be whole), every other entry is only sniffed (its first
/// chunk) or, for the few metadata files, read up to a small cap. Peak memory is therefore the
/// largest binary, not the archive.
///
/// Entries that could do harm are errors for that entry, never read: a path that leaves the
/// archive (`../x`, `/etc/x`), a declared size above the cap or beyond what deflate can produce
/// from the stored bytes, data that inflates past its declared size.
package final class ZipBundleSource: BundleSource {
    package let root: String
    /// An entry is inflated whole, so the usual cap holds.
    package var mapsContents: Bool { false }
    private let archive: Archive
    private var byPath: [String: Entry] = [:]
    /// The zip is in memory (an APK inside an APK set): no file to count its entries in.
    private let isInMemory: Bool

    /// The most deflate can expand (1032:1); entries up to 1 KiB are not judged by it.
    static let maximumRatio: UInt64 = 1032

    package init(path: String) throws(InputError) {
        root = path
        isInMemory = false
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw InputError(
                path: path, message: "not a readable zip archive (no valid end-of-central-directory record)")
        }
    }

    /// A zip already in memory (an entry of another zip), named `root` in messages.
    package init(data: Data, root: String) throws(InputError) {
        self.root = root
        isInMemory = true
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw InputError(
                path: root, message: "not a readable zip archive (no valid end-of-central-directory record)")
        }
    }

    package func files() -> (entries: [BundleEntry], errors: [InputError]) {
        var entries: [BundleEntry] = []
        var errors: [InputError] = []
        var listed = 0
        for entry in archive {
            listed += 1
            guard entry.type == .file else { continue }
            let path = entry.path
            if let problem = Self.pathProblem(path) {
                errors.append(InputError(path: displayPath(FileEnumerator.escaped(path)), message: problem))
                continue
            }
            if let problem = Self.sizeProblem(entry) {
                errors.append(InputError(path: displayPath(path), message: problem))
                continue
            }
            byPath[path] = entry
            entries.append(
                BundleEntry(
                    path: path,
                    size: EntrySize(compressed: entry.compressedSize, uncompressed: entry.uncompressedSize)))
        }
        if !isInMemory, let declared = ZipDirectory.declaredEntryCount(path: root), listed < declared {
            errors.append(
                InputError(
                    path: root,
                    message:
                        "broken central directory: \(declared) entries declared, \(listed) readable; the rest were not checked"
                ))
        }
        return (entries.sorted { $0.path < $1.path }, errors)
    }

    package func binaryContents(of entry: BundleEntry, limit: Int) throws(InputError) -> FileBytes? {
        looksLikeBinary(entry) ? try contents(of: entry, limit: limit) : nil
    }

    /// Only the entry's first bytes are inflated.
    private func looksLikeBinary(_ entry: BundleEntry) -> Bool {
        guard let zipEntry = byPath[entry.path] else { return false }
        var prefix: [UInt8] = []
        // Stop after the first chunk: the rest of the entry is never inflated.
        _ = try? archive.extract(zipEntry, bufferSize: 512, skipCRC32: true) { chunk in
            prefix += chunk.prefix(8 - prefix.count)
            if prefix.count >= 8 { throw StopReading() }
        }
        return BinaryFile.looksLikeBinary(prefix)
    }

    package func contents(of entry: BundleEntry, limit: Int) throws(InputError) -> FileBytes {
        let name = displayPath(entry.path)
        guard let zipEntry = byPath[entry.path] else { throw InputError(path: name, message: "not in the archive") }
        let declared = entry.size.uncompressed
        guard declared <= UInt64(limit) else {
            throw InputError(
                path: name,
                message: "declares \(declared) bytes, more than shipcheck reads from one entry (\(limit)): not read")
        }
        let count = Int(declared)
        return try FileBytes.filled(count: count) { (filler: inout FileBytes.Filler) throws(InputError) in
            do {
                _ = try archive.extract(zipEntry, skipCRC32: false) { chunk in
                    guard filler.append(chunk) else { throw Overflow() }
                }
            } catch is Overflow {
                throw InputError(path: name, message: "inflates past its declared size (\(count) bytes): not read")
            } catch {
                throw InputError(path: name, message: "cannot be read from the archive: \(error)")
            }
            guard filler.written == count else {
                throw InputError(
                    path: name, message: "holds \(filler.written) bytes, \(count) declared: truncated entry")
            }
        }
    }

    /// An entry path that would land outside the folder it is extracted to.
    static func pathProblem(_ path: String) -> String? {
        if path.hasPrefix("/") || path.hasPrefix("\\") { return "entry has an absolute path: refused, not read" }
        let components = path.split(omittingEmptySubsequences: true) { $0 == "/" || $0 == "\\" }
        if components.contains("..") { return "entry path leaves the archive ('..'): refused, not read" }
        return nil
    }

    /// A declared size no real entry has.
    static func sizeProblem(_ entry: Entry) -> String? {
        let declared = entry.uncompressedSize, stored = entry.compressedSize
        if entry.isCompressed {
            guard declared <= 1024 || declared / maximumRatio <= stored else {
                return
                    "declares \(declared) bytes from \(stored) compressed bytes (more than deflate can produce): refused, not read"
            }
        } else if declared != stored {
            return "stored entry declares \(declared) bytes but holds \(stored): refused, not read"
        }
        return nil
    }

    private struct StopReading: Error {}
    private struct Overflow: Error {}
}

/// The end-of-central-directory record's entry count, to tell a central directory that stops
/// early (ZIPFoundation's iteration ends silently at the first bad record) from a complete one.
enum ZipDirectory {
    static func declaredEntryCount(path: String) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return nil }
        // The record is 22 bytes plus a comment of up to 65,535.
        let start = size > 65_557 ? size - 65_557 : 0
        guard (try? handle.seek(toOffset: start)) != nil, let tail = try? handle.readToEnd() else { return nil }
        let bytes = [UInt8](tail)
        var index = bytes.count - 22
        while index >= 0 {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x05, bytes[index + 3] == 0x06 {
                let total = Int(bytes[index + 10]) | Int(bytes[index + 11]) << 8
                return total == 0xFFFF ? nil : total  // ZIP64: the count lives elsewhere
            }
            index -= 1
        }
        return nil
    }
}
