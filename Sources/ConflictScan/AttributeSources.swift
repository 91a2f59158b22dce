import Foundation
import ShipcheckCore

/// Where git reads attributes from, searched for `conflict-marker-size` values.
///
/// Asking `git check-attr` about every path costs a third of a working-tree scan. Only paths
/// holding a marker-like run need their attributes, and a run shorter than every marker size
/// in use can never be a marker — so the scan looks for runs as short as the smallest size
/// any attribute file sets (7 when none sets a smaller one), then asks git about the files
/// that have one.
enum AttributeSources {
    /// The smallest `conflict-marker-size=N` in any attribute file git would read for this
    /// repository (every `.gitattributes`, `info/attributes`, the global and system files),
    /// or git's default when none is smaller. The `.gitattributes` the scan lists come from its
    /// early reads (tracked ones above the root from the index: listing untracked files again
    /// would walk the whole tree a second time).
    static func smallestMarkerSize(in repository: GitRepository, context: ScanContext) throws(InputError) -> Int {
        var smallest = ContentScanner.defaultMarkerSize
        let listed = context.files.filter { isAttributeFile($0.relativePath) }.map(\.path)
        var seen: Set<String> = []
        for path in listed + (try files(of: repository)) where seen.insert(path).inserted && FileKind.of(path) != nil {
            guard let bytes = try? context.contents(ofPath: path, sizeLimit: 16 << 20) else { continue }
            smallest = min(smallest, smallestSize(in: bytes))
        }
        return smallest
    }

    static func isAttributeFile(_ relativePath: String) -> Bool {
        relativePath == ".gitattributes" || relativePath.hasSuffix("/.gitattributes")
    }

    static func smallestSize(in bytes: [UInt8]) -> Int {
        let key = Array("conflict-marker-size=".utf8)
        var smallest = Int.max
        bytes.withUnsafeBytes { buffer in
            key.withUnsafeBytes { needle in
                var position = 0
                while let hit = ByteSearch.find(needle, in: buffer, from: position) {
                    var value = 0, index = hit + key.count, digits = 0
                    while index < buffer.count, buffer[index] >= 0x30, buffer[index] <= 0x39, digits < 9 {
                        value = value * 10 + Int(buffer[index] - 0x30)
                        index += 1
                        digits += 1
                    }
                    if value > 0 { smallest = min(smallest, value) }
                    position = hit + 1
                }
            }
        }
        return smallest
    }

    private static func files(of repository: GitRepository) throws(InputError) -> [String] {
        let base = repository.directory
        // As the scan opens its files: `sub/.gitattributes` under a root of ".", `root/sub/…` otherwise.
        func resolved(_ path: String) -> String { path.hasPrefix("/") || base == "." ? path : base + "/" + path }
        func line(_ output: [UInt8]) -> String { String(lossyUTF8: output).trimmingCharacters(in: .newlines) }

        // Every tracked .gitattributes, from the top level down (`:/` = from the top).
        let listed = try repository.run(["ls-files", "-z", "--cached", "--", ":/*.gitattributes"])
        var paths = listed.split(separator: 0).map { resolved(String(lossyUTF8: $0)) }
        paths.append(resolved(line(try repository.run(["rev-parse", "--git-path", "info/attributes"]))))
        let environment = ProcessInfo.processInfo.environment
        if let global = try? repository.run(["config", "--path", "--get", "core.attributesFile"]), !line(global).isEmpty {
            paths.append(resolved(line(global)))
        } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            paths.append(xdg + "/git/attributes")
        } else if let home = environment["HOME"] {
            paths.append(home + "/.config/git/attributes")
        }
        if environment["GIT_ATTR_NOSYSTEM"] == nil {
            paths.append("/etc/gitattributes")
            // A git installed under another prefix (Xcode, Homebrew) reads PREFIX/etc/gitattributes.
            let execPath = line(try repository.run(["--exec-path"]))
            paths.append(URL(fileURLWithPath: execPath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("etc/gitattributes").path)
        }
        return paths
    }
}
