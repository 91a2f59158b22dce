import Foundation
import ScanEngine

/// Expands `binaries:` globs into existing files. Release artifacts usually live in ignored
/// build folders, so this walks the file system, not git's view; the pattern's literal
/// leading folders are resolved first, so `.build/release/App` works through SwiftPM's
/// `release` symlink.
package enum ArtifactPaths {
    /// What an artifact the user named is: the path itself, or for a symbolic link (`latest.ipa`)
    /// the file it names, followed once (links inside an artifact are never followed); an input
    /// error naming the link when it dangles or loops.
    package static func followingNamedLink(_ path: String) -> Result<String, InputError> {
        guard FileKind.of(path) == .symlink else { return .success(path) }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let kind = FileKind.of(target), kind != .symlink, target != path else {
            return .failure(InputError(path: path, message: "a symbolic link that dangles or loops"))
        }
        return .success(target)
    }

    package static func expand(_ patterns: [String], root: String) -> (paths: [String], errors: [InputError]) {
        var paths: [String] = []
        var errors: [InputError] = []
        for pattern in patterns {
            let components = pattern.split(separator: "/").map(String.init)
            let literal = components.prefix { !$0.contains(where: { "*?[".contains($0) }) }
            // Under a root of ".", paths read like every other reported path: `build/App`, not `./build/App`.
            let base = (root == "." && !literal.isEmpty ? Array(literal) : [root] + literal).joined(separator: "/")
            if literal.count == components.count {
                if FileKind.of(base) != nil {
                    paths.append(base)
                } else {
                    errors.append(
                        InputError(
                            path: pattern, message: "binary named in the configuration does not exist (build it first)")
                    )
                }
                continue
            }
            let glob = Glob("/" + components.dropFirst(literal.count).joined(separator: "/"))
            let resolvedBase =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: base)).map {
                    $0.hasPrefix("/") ? $0 : (base as NSString).deletingLastPathComponent + "/" + $0
                } ?? base
            guard let walker = FileManager.default.enumerator(atPath: resolvedBase) else {
                errors.append(
                    InputError(
                        path: pattern,
                        message: "no files match (folder \(literal.joined(separator: "/")) does not exist)"))
                continue
            }
            var matched: [String] = []
            while let relative = walker.nextObject() as? String {
                if glob.matches(relative), FileKind.of(resolvedBase + "/" + relative) == .regular {
                    matched.append(base + "/" + relative)
                }
            }
            if matched.isEmpty { errors.append(InputError(path: pattern, message: "no files match")) }
            paths += matched.sorted()
        }
        return (paths, errors)
    }
}
