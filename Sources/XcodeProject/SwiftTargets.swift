/// Which compilation unit (target) a Swift file belongs to. Only names declared in the same
/// target are visible without an import, so that is the scope of the archive-breaker check.
///
/// SwiftPM's conventional layout is recognised: under a folder holding `Package.swift`, files
/// in `Sources/<Target>/` (or `Tests/<Target>/`, `Plugins/<Target>/`) form one target each.
/// Everything else (an Xcode app's folders) is one target per scan root, because the file
/// membership in `project.pbxproj` targets is not modelled. Custom `path:` arguments in a
/// manifest are not read either.
package struct SwiftTargets: Sendable {
    /// Folders holding a `Package.swift`, relative to the root ("." for the root itself),
    /// deepest first so a nested package wins over the one around it.
    private let packageDirectories: [String]

    package init(swiftFiles: [String]) {
        packageDirectories = swiftFiles.filter(Self.isManifest).map { path in
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return String(path[..<slash])
        }.sorted { $0.count > $1.count }
    }

    /// `Package.swift` and `Package@swift-6.0.swift`: compiled on their own, never part of a target.
    package static func isManifest(_ path: String) -> Bool {
        guard path.hasSuffix(".swift") else { return false }
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
        return name == "Package.swift" || name.hasPrefix("Package@swift-")
    }

    /// The target's name for `relativePath`: `Pkg/Sources/Core` for a SwiftPM target, "." otherwise.
    package func target(of relativePath: String) -> String {
        for directory in packageDirectories {
            let inside: Substring
            if directory == "." {
                inside = Substring(relativePath)
            } else if relativePath.hasPrefix(directory + "/") {
                inside = relativePath.dropFirst(directory.count + 1)
            } else {
                continue
            }
            let parts = inside.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, ["Sources", "Tests", "Plugins"].contains(parts[0]) else { continue }
            return (directory == "." ? "" : directory + "/") + "\(parts[0])/\(parts[1])"
        }
        return "."
    }
}
