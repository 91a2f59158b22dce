import Foundation
import ScanEngine

/// How a build step wants findings: Xcode's issue navigator and SwiftPM build-tool plugins
/// show `path:line:col: warning: …` lines, open the file by an absolute path, and fail the
/// build on a non-zero exit.
extension CheckResult {
    /// Errors become warnings, so no finding fails the build (`--lenient`). Notes stay notes.
    package mutating func lowerErrorsToWarnings() {
        for index in findings.indices where findings[index].severity == .error {
            findings[index].severity = .warning
        }
    }

    /// Findings and input errors name their files by absolute path: relative paths are taken
    /// to lie under `root` (a scan's root directory, or a file given as the root: its folder).
    package mutating func anchorPaths(at root: String) {
        let directory = Self.absoluteDirectory(of: root)
        for index in findings.indices { findings[index].location = findings[index].location.anchored(in: directory) }
        for index in inputErrors.indices where !inputErrors[index].path.hasPrefix("/") {
            inputErrors[index].path = directory + "/" + inputErrors[index].path
        }
    }

    private static func absoluteDirectory(of root: String) -> String {
        var directory = LexicalPath.absolute(root, in: FileManager.default.currentDirectoryPath)
        if FileKind.of(directory) != .directory { directory = (directory as NSString).deletingLastPathComponent }
        return directory
    }
}

extension Location {
    /// The same place with a relative `path` joined to `directory` (the reverse of `relative(to:)`).
    package func anchored(in directory: String) -> Location {
        guard !path.hasPrefix("/") else { return self }
        let absolute = directory + "/" + path
        switch self {
        case .source(var location):
            location.path = absolute
            return .source(location)
        case .binary(var location):
            location.path = absolute
            return .binary(location)
        case .file: return .file(path: absolute)
        }
    }
}
