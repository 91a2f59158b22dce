import Foundation
import ShipcheckCore

/// Finds leftover merge-conflict blocks and remnants, unmerged index entries and a stopped
/// merge, rebase, cherry-pick or revert: the conflict capability's entry point.
///
/// `paths` limit the scan to files or directories relative to `root` (the files pre-commit
/// passes, for example); reported paths are relative to `root`.
public struct ConflictScanner: Sendable {
    public let root: String
    public let configuration: Configuration
    public let scope: ConflictScope
    public let paths: [String]

    public init(root: String, configuration: Configuration, scope: ConflictScope = .workingTree, paths: [String] = []) {
        self.root = root
        self.configuration = configuration
        self.scope = scope
        self.paths = paths
    }

    public func run() -> CheckResult {
        var result: CheckResult
        switch scope {
        case .workingTree:
            result = WorkingTreeScan(root: root, configuration: configuration, filter: PathFilter(paths)).run()
        case .staged:
            result = IndexScan(root: root, configuration: configuration, filter: PathFilter(paths), revision: nil).run()
        case .revision(let revision):
            result = IndexScan(root: root, configuration: configuration, filter: PathFilter(paths), revision: revision).run()
        }
        result.findings.sort(by: Finding.readingOrder)
        return result
    }
}

/// Scans one file's bytes at the marker size its attributes ask for.
struct ContentCheck: Sendable {
    let builder: FindingBuilder

    func check(_ bytes: [UInt8], path: String, attributes: PathAttributes) -> [Finding] {
        bytes.withUnsafeBytes { check($0, path: path, attributes: attributes, searchSize: nil).findings }
    }

    /// Also says whether the content has marker-like runs of at least `searchSize`.
    func check(_ buffer: UnsafeRawBufferPointer, path: String, attributes: PathAttributes, searchSize: Int?) -> (findings: [Finding], hasMarkerLines: Bool) {
        guard !attributes.isBinary else { return ([], false) }
        let content = ContentScanner.scan(buffer, markerSize: attributes.markerSize, searchSize: searchSize)
        return (builder.findings(for: content, path: path), content.hasMarkerLines)
    }
}
