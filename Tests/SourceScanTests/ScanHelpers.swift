import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport

@testable import SourceScan

/// Writes `files` into a fresh directory and runs the scanner on it.
func scan(_ files: [String: String], configuration: Configuration = Configuration()) -> CheckResult {
    let directory = TemporaryDirectory("shipcheck-sources")
    for (path, text) in files { directory.write(path, text) }
    return SourceScanner(root: directory.path, configuration: configuration, rules: RuleRegistry.rules).run()
}

/// Scans one Swift file and returns `line:column rule` for each finding, in reading order.
func places(_ source: String, path: String = "View.swift", configuration: Configuration = Configuration()) -> [String] {
    scan([path: source], configuration: configuration).findings.sorted(by: Finding.readingOrder).map {
        "\($0.location.line ?? 0):\(column(of: $0)) \($0.ruleID)"
    }
}

func column(of finding: Finding) -> Int {
    if case .source(let location) = finding.location { return location.column }
    return 0
}

/// Runs `--fix` on one file and returns the rewritten text (nil when nothing changed).
func fixed(_ source: String, path: String = "View.swift", configuration: Configuration = Configuration()) -> (
    text: String?, result: SourceFixResult
) {
    let directory = TemporaryDirectory("shipcheck-fix")
    directory.write(path, source)
    let result = SourceScanner(root: directory.path, configuration: configuration, rules: RuleRegistry.rules).fix()
    return (result.fixes.first.map { String(decoding: $0.fixed, as: UTF8.self) }, result)
}
