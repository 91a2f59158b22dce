import ShipcheckCore

/// `shipcheck sources`: every SwiftUI preview and every Development Assets Swift file under
/// `root` must be compiled only when `DEBUG` is set. One pipeline over the tree with the
/// `sources` check (`SourceRulesCheck`); the audit runs the same check in its own pipeline.
public struct SourceScanner: Sendable {
    public let root: String
    public let configuration: Configuration
    /// The registry's rules (`RuleRegistry.rules`); the check takes the source and project rules.
    public let rules: [any Rule.Type]
    public let source: any FileSource

    public init(
        root: String, configuration: Configuration, rules: [any Rule.Type], source: any FileSource = DiskFileSource()
    ) {
        self.root = root
        self.configuration = configuration
        self.rules = rules
        self.source = source
    }

    /// Scans every Swift file; with a `cache`, files it holds unchanged are not parsed again
    /// and every file's result is recorded in it.
    public func run(cache: SourceScanCache? = nil) -> CheckResult {
        ScanPipeline(root: root, configuration: configuration, source: source)
            .run([SourceRulesCheck(rules: rules, configuration: configuration, cache: cache)]).combined
    }

    /// Computes the rewrites `--fix` would make; nothing is written (see `SourceFix.write()`).
    public func fix() -> SourceFixResult {
        let check = SourceRulesCheck(rules: rules, configuration: configuration, fixing: true)
        let outcome = ScanPipeline(root: root, configuration: configuration, source: source).run([check])
        var result = check.fixes
        result.inputErrors = outcome.inputErrors
        return result
    }
}

/// What `--fix` changes in one file.
public struct SourceFix: Sendable {
    public var relativePath: String
    public var path: String
    public var original: [UInt8]
    public var fixed: [UInt8]
    public var wrappedPreviews: Int
    /// Constructions moved into `StateObject(wrappedValue:)` (`state-built-in-init`).
    public var movedConstructions: Int = 0

    /// The change as a unified diff against `a/PATH` and `b/PATH`.
    public var unifiedDiff: String {
        UnifiedDiff.render(
            original: String(decoding: original, as: UTF8.self), modified: String(decoding: fixed, as: UTF8.self),
            path: relativePath)
    }

    /// Replaces the file atomically, unless it changed since it was read.
    public func write() throws(InputError) {
        let current = try SafeFileReader.read(path, displayPath: relativePath)
        guard current == original else {
            throw InputError(path: relativePath, message: "changed while fixing; not rewritten")
        }
        try AtomicFile.write(fixed, to: path)
    }
}

/// All the rewrites of one `fix()` run and the inputs it could not handle.
public struct SourceFixResult: Sendable {
    public var fixes: [SourceFix] = []
    /// Previews (or files) `--fix` left alone, and why; the scan still reports them.
    public var notFixed: [InputError] = []
    /// Inputs that could not be read or parsed (the scan reports them too).
    public var inputErrors: [InputError] = []

    public var wrappedPreviews: Int { fixes.reduce(0) { $0 + $1.wrappedPreviews } }
    public var movedConstructions: Int { fixes.reduce(0) { $0 + $1.movedConstructions } }
}
