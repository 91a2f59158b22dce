import ShipcheckCore

/// One check on its own over `root`, through the same pipeline `audit` runs all of them in.
package func scan(
    _ root: String, configuration: Configuration = Configuration(), with check: any FileCheck,
    checksListedKinds: Bool = true
) -> CheckResult {
    ScanPipeline(root: root, configuration: configuration, checksListedKinds: checksListedKinds).run([check]).combined
}

/// Findings made by hand as a check's would reach a report: through `CheckResult.finalized`,
/// the one place findings get their fingerprints.
package func finalized(_ findings: [Finding], configuration: Configuration = Configuration()) -> [Finding] {
    CheckResult(findings: findings).finalized(configuration: configuration).findings
}
