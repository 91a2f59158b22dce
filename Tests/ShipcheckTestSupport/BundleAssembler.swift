import Foundation
import ZIPFoundation

/// Puts Apple bundles together in a temporary folder from the committed Mach-O and signing
/// fixtures (`.app`, `.framework`, `.xcframework`, `.xcarchive`), zips them into `.ipa` files
/// with ZIPFoundation, and damages zips on purpose for the hostile-input tests.
package struct BundleAssembler {
    package let directory: TemporaryDirectory

    package init(_ directory: TemporaryDirectory) { self.directory = directory }

    /// A privacy manifest (as a `text:` file) declaring, with approved reasons, every
    /// required-reason API the `preflight/Store-ios` fixture uses: an app built from it is clean.
    package static let storeManifest =
        "text:" + """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>NSPrivacyAccessedAPITypes</key><array>
            <dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryFileTimestamp</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>C617.1</string></array></dict>
            <dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategorySystemBootTime</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>35F9.1</string></array></dict>
            <dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>CA92.1</string></array></dict>
            </array></dict></plist>
            """

    /// An XML property list of string values (an Info.plist, ExportOptions.plist).
    package static func plist(_ values: [String: String]) -> String {
        let entries = values.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><string>\($0.value)</string>" }
            .joined()
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>\(entries)</dict></plist>"
    }

    /// A committed fixture: `macho/App-ios`, `bundle/dev.mobileprovision`.
    package static func fixture(_ name: String) -> String { Repository.path("Tests/Fixtures/" + name) }

    /// Writes each file (path inside the folder → fixture name, or `text:` + contents) and each
    /// symlink (path → target); returns the folder's absolute path.
    @discardableResult
    package func folder(_ relative: String, files: [String: String], symlinks: [String: String] = [:]) -> String {
        for (path, source) in files.sorted(by: { $0.key < $1.key }) {
            if source.hasPrefix("text:") {
                directory.write("\(relative)/\(path)", String(source.dropFirst(5)))
            } else {
                directory.write(
                    "\(relative)/\(path)", bytes: Array(FileManager.default.contents(atPath: Self.fixture(source))!))
            }
        }
        for (path, target) in symlinks.sorted(by: { $0.key < $1.key }) {
            let full = "\(directory.path)/\(relative)/\(path)"
            try! FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try! FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        }
        return "\(directory.path)/\(relative)"
    }

    /// Zips `folder` (relative) into `name` (relative): entries are named from inside the folder.
    @discardableResult
    package func zip(_ folder: String, to name: String) -> String {
        let target = URL(fileURLWithPath: "\(directory.path)/\(name)")
        try! FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! FileManager.default.zipItem(
            at: URL(fileURLWithPath: "\(directory.path)/\(folder)"), to: target,
            shouldKeepParent: false, compressionMethod: .deflate)
        return target.path
    }

    /// Writes a zip of `entries` in order (a name ending in `/` is a folder entry), each stored or
    /// deflated as it says, into `name` (relative); returns its absolute path.
    @discardableResult
    package func zip(entries: [(name: String, bytes: [UInt8], stored: Bool)], to name: String) throws -> String {
        let path = "\(directory.path)/\(name)"
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for entry in entries {
            let isFolder = entry.name.hasSuffix("/")
            try archive.addEntry(
                with: entry.name, type: isFolder ? .directory : .file, uncompressedSize: Int64(entry.bytes.count),
                compressionMethod: entry.stored ? .none : .deflate
            ) { position, size in
                Data(entry.bytes[Int(position)..<Int(position) + size])
            }
        }
        return path
    }

    /// The file's bytes with every occurrence of `old` replaced by `new` (same length): renames an
    /// entry in both its local header and the central directory.
    package static func replacing(_ old: String, with new: String, in path: String) {
        precondition(old.utf8.count == new.utf8.count)
        var bytes = Array(FileManager.default.contents(atPath: path)!)
        let pattern = Array(old.utf8), replacement = Array(new.utf8)
        var index = 0
        while index <= bytes.count - pattern.count {
            if Array(bytes[index..<(index + pattern.count)]) == pattern {
                bytes.replaceSubrange(index..<(index + pattern.count), with: replacement)
                index += pattern.count
            } else {
                index += 1
            }
        }
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Sets the uncompressed size that the central directory declares for the entry `name`.
    package static func declareSize(_ size: UInt32, ofEntry name: String, in path: String) {
        var bytes = Array(FileManager.default.contents(atPath: path)!)
        for record in centralRecords(bytes) where entryName(bytes, record) == name {
            bytes.replaceSubrange(
                (record + 24)..<(record + 28), with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        }
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Overwrites the signature of the `index`th central-directory record: the directory is
    /// unreadable from there on.
    package static func breakCentralDirectory(at index: Int, in path: String) {
        var bytes = Array(FileManager.default.contents(atPath: path)!)
        let record = centralRecords(bytes)[index]
        bytes.replaceSubrange(record..<(record + 4), with: [0, 0, 0, 0])
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private static func centralRecords(_ bytes: [UInt8]) -> [Int] {
        (0..<(bytes.count - 46)).filter {
            bytes[$0] == 0x50 && bytes[$0 + 1] == 0x4B && bytes[$0 + 2] == 0x01 && bytes[$0 + 3] == 0x02
        }
    }

    private static func entryName(_ bytes: [UInt8], _ record: Int) -> String {
        let length = Int(bytes[record + 28]) | Int(bytes[record + 29]) << 8
        return String(decoding: bytes[(record + 46)..<(record + 46 + length)], as: UTF8.self)
    }
}
