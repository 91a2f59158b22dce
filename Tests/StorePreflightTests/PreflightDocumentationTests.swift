import BinaryInspect
import Foundation
import ShipcheckFrontend
import ShipcheckTestSupport
import StorePreflight
import Testing

/// docs/preflight.md is the user's list of the pre-flight rules and of the data they read: a row
/// per rule at its severity, every SDK floor and every library of the lists, with its source.
@Suite struct PreflightDocumentationTests {
    static let page = try! String(contentsOfFile: Repository.path("docs/preflight.md"), encoding: .utf8)
    static let rows = page.split(separator: "\n").filter { $0.hasPrefix("| ") }

    @Test func everyPreflightRuleHasARowWithItsSeverity() {
        let rules = RuleRegistry.descriptions.filter { $0.id.hasPrefix("preflight-") }
        #expect(rules.count >= 10)
        for rule in rules {
            let row = Self.rows.first { $0.hasPrefix("| `\(rule.id)` |") }
            #expect(
                row?.hasPrefix("| `\(rule.id)` | \(rule.defaultSeverity.rawValue)") == true,
                "docs/preflight.md: no row for \(rule.id) at \(rule.defaultSeverity)")
            #expect(rule.storeRejection != nil && rule.fix != nil, "\(rule.id): what it pre-empts and how to fix it")
        }
    }

    @Test func everyDataRowIsListedWithItsSource() {
        for floor in StoreSDKFloors.table.rows {
            let platform = floor.subject == .iOS ? "iOS, iPadOS" : floor.subject.displayName
            let sdk = floor.value
            #expect(
                Self.rows.contains("| \(floor.since) | \(platform) | \(sdk.version) | \(sdk.xcode) | \(sdk.source) |"),
                "\(floor.since) \(platform) \(sdk.version)")
        }
        for entry in TestAndDebuggingLibraries.testFrameworks + TestAndDebuggingLibraries.debuggingTools {
            #expect(Self.rows.contains("| `\(entry.module)` | \(entry.what) | \(entry.source) |"), "\(entry.module)")
        }
        for prefix in TestAndDebuggingLibraries.testSymbolPrefixes {
            #expect(Self.page.contains("`\(prefix)`"), "\(prefix)")
        }
    }
}
