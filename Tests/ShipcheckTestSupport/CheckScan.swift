import ShipcheckCore

/// One check on its own over `root`, through the same pipeline `audit` runs all of them in.
package func scan(
    _ root: String, configuration: Configuration = Configuration(), with check: any FileCheck,
    checksListedKinds: Bool = true
) -> CheckResult {
    ScanPipeline(root: root, configuration: configuration, checksListedKinds: checksListedKinds).run([check]).combined
}
