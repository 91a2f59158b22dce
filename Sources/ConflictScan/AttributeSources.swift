import Foundation
import ScanEngine
import ShipcheckCore

/// Where git reads attributes from, searched for `conflict-marker-size` values.
///
/// Asking `git check-attr` about every path costs a third of a working-tree scan. Only paths
/// that could hold a block or remnant need their attributes, and a path's marker size is git's
/// default or one that some attribute file sets — so the scan knows every size in use before
/// it reads, keeps the marker lines of a file only when an opener, base or closer has one of
/// those sizes, and asks git about those files alone.
enum AttributeSources {
    /// Every marker size a path can have in this repository, ascending: git's default and each
    /// `conflict-marker-size=N` in any attribute file git would read (every `.gitattributes`,
    /// `info/attributes`, the global and system files). The `.gitattributes` the scan lists
    /// come from its early reads (tracked ones above the root from the index: listing
    /// untracked files again would walk the whole tree a second time).
    static func markerSizes(in repository: GitRepository, context: ScanContext) throws(InputError) -> [Int] {
        var sizes: Set = [ContentScanner.defaultMarkerSize]
        let listed = context.files.filter { isAttributeFile($0.relativePath) }.map(\.path)
        var seen: Set<String> = []
        for path in listed + (try files(of: repository)) where seen.insert(path).inserted && FileKind.of(path) != nil {
            guard let bytes = try? context.contents(ofPath: path, sizeLimit: 16 << 20) else { continue }
            sizes.formUnion(markerSizes(in: bytes))
        }
        return sizes.sorted()
    }

    static func isAttributeFile(_ relativePath: String) -> Bool {
        relativePath == ".gitattributes" || relativePath.hasSuffix("/.gitattributes")
    }

    /// The positive values of every `conflict-marker-size=` in an attribute file's bytes.
    static func markerSizes(in bytes: [UInt8]) -> Set<Int> {
        let key = Array("conflict-marker-size=".utf8)
        var sizes: Set<Int> = []
        bytes.withByteView { buffer in
            var position = 0
            while let hit = buffer.firstIndex(of: key, from: position) {
                var value = 0, index = hit + key.count, digits = 0
                while index < buffer.count, buffer[index] >= 0x30, buffer[index] <= 0x39, digits < 9 {
                    value = value * 10 + Int(buffer[index] - 0x30)
                    index += 1
                    digits += 1
                }
                if value > 0 { sizes.insert(value) }
                position = hit + 1
            }
        }
        return sizes
    }

    private static func files(of repository: GitRepository) throws(InputError) -> [String] {
        let base = repository.directory
        // As the scan opens its files: `sub/.gitattributes` under a root of ".", `root/sub/…` otherwise.
        func resolved(_ path: String) -> String { path.hasPrefix("/") || base == "." ? path : base + "/" + path }
        func line(_ output: [UInt8]) -> String { String(lossyUTF8: output).trimmingCharacters(in: .newlines) }

        // Independent questions, each a git process of a few milliseconds: asked at once.
        // Every tracked .gitattributes from the top level down (`:/` = from the top); the
        // repository's own file; the global one (git exits 1 when none is configured); where
        // git is installed (for its system file).
        let environment = ProcessInfo.processInfo.environment
        let readsSystemFile = environment["GIT_ATTR_NOSYSTEM"] == nil
        let questions =
            [
                ["ls-files", "-z", "--cached", "--", ":/*.gitattributes"],
                ["rev-parse", "--git-path", "info/attributes"],
                ["config", "--path", "--get", "core.attributesFile"]
            ] + (readsSystemFile ? [["--exec-path"]] : [])
        let answers = questions.parallelMap { arguments in
            Result { () throws(InputError) in try repository.run(arguments) }
        }

        var paths = try answers[0].get().split(separator: 0).map { resolved(String(lossyUTF8: $0)) }
        paths.append(resolved(line(try answers[1].get())))
        if let global = try? answers[2].get(), !line(global).isEmpty {
            paths.append(resolved(line(global)))
        } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            paths.append(xdg + "/git/attributes")
        } else if let home = environment["HOME"] {
            paths.append(home + "/.config/git/attributes")
        }
        if readsSystemFile {
            paths.append("/etc/gitattributes")
            // A git installed under another prefix (Xcode, Homebrew) reads PREFIX/etc/gitattributes.
            let execPath = line(try answers[3].get())
            paths.append(
                URL(fileURLWithPath: execPath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("etc/gitattributes").path)
        }
        return paths
    }
}
