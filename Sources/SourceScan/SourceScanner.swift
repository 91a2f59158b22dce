import ScanEngine
import ShipcheckCore

/// `shipcheck sources`: every SwiftUI preview and every Development Assets Swift file under
/// `root` must be compiled only when `DEBUG` is set. One pipeline over the tree with the
/// `sources` check (`SourceRulesCheck`); the audit runs the same check in its own pipeline.
package struct SourceScanner: Sendable {
    package let root: String
    package let configuration: Configuration
    /// The registry's rules (`RuleRegistry.rules`); the check takes the source and project rules.
    package let rules: [any Rule.Type]
    package let source: any FileSource
    package let parsing: SourceParsing

    package init(
        root: String, configuration: Configuration, rules: [any Rule.Type], source: any FileSource = DiskFileSource(),
        parsing: SourceParsing = SourceParsing()
    ) {
        self.parsing = parsing
        self.root = root
        self.configuration = configuration
        self.rules = rules
        self.source = source
    }

    /// Scans every Swift file; with a `cache`, files it holds unchanged are not parsed again
    /// and every file's result is recorded in it.
    package func run(cache: ResultCache? = nil) -> CheckResult {
        ScanPipeline(root: root, configuration: configuration, source: source, cache: cache)
            .run([SourceRulesCheck(rules: rules, configuration: configuration, parsing: parsing)]).combined
    }

    /// Computes the rewrites `--fix` would make; nothing is written (see `SourceFix.write()`).
    package func fix() -> SourceFixResult {
        let check = SourceRulesCheck(rules: rules, configuration: configuration, fixing: true, parsing: parsing)
        let outcome = ScanPipeline(root: root, configuration: configuration, source: source).run([check])
        var result = check.fixes
        result.inputErrors = outcome.inputErrors
        return result
    }
}

/// What `--fix` changes in one file.
package struct SourceFix: Sendable {
    package var relativePath: String
    package var path: String
    package var original: [UInt8]
    package var fixed: [UInt8]
    package var wrappedPreviews: Int
    /// Constructions moved into `StateObject(wrappedValue:)` (`state-built-in-init`).
    package var movedConstructions: Int = 0

    /// The change as a unified diff against `a/PATH` and `b/PATH`.
    package var unifiedDiff: String {
        UnifiedDiff.render(
            original: String(decoding: original, as: UTF8.self), modified: String(decoding: fixed, as: UTF8.self),
            path: relativePath)
    }

    /// Replaces the file atomically, unless it changed since it was read.
    package func write() throws(InputError) {
        let current = try SafeFileReader.read(path, displayPath: relativePath)
        guard current == original else {
            throw InputError(path: relativePath, message: "changed while fixing; not rewritten")
        }
        try AtomicFile.write(fixed, to: path)
    }
}

/// All the rewrites of one `fix()` run and the inputs it could not handle.
package struct SourceFixResult: Sendable {
    package var fixes: [SourceFix] = []
    /// Previews (or files) `--fix` left alone, and why; the scan still reports them.
    package var notFixed: [InputError] = []
    /// Inputs that could not be read or parsed (the scan reports them too).
    package var inputErrors: [InputError] = []

    package var wrappedPreviews: Int { fixes.reduce(0) { $0 + $1.wrappedPreviews } }
    package var movedConstructions: Int { fixes.reduce(0) { $0 + $1.movedConstructions } }
}
