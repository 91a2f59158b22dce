import ReleaseDiff
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import Testing

/// `previous:` and the size budgets as `.shipcheck.yml` states them, and what a wrong value says.
@Suite struct PreviousReleaseSettingsTests {
    func parse(_ text: String) throws(InputError) -> Configuration {
        try ConfigurationLoader.parse(
            text, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
    }

    @Test func thePreviousReleaseAndTheBudgetsAreRead() throws {
        let configuration = try parse(
            """
            previous: releases/App-2.3.ipa
            rules:
              previous-size-budget:
                total: 5%
                download: 2 MB
                parts:
                  "native libraries (arm64-v8a)": 500 KB
                  dex: "12.5 %"
            """)
        #expect(configuration.settings(PreviousReleaseSettings.self).previous == "releases/App-2.3.ipa")
        let budgets = configuration.options(for: SizeBudgetRule.self)
        #expect(budgets.total == .percent(5))
        #expect(budgets.download == .bytes(2_000_000))
        #expect(budgets.parts == ["native libraries (arm64-v8a)": .bytes(500_000), "dex": .percent(12.5)])
    }

    @Test(arguments: [
        (
            "rules:\n  previous-size-budget:\n    total: lots\n", 3,
            "'rules.previous-size-budget.total': lots is not a size budget"
        ),
        ("rules:\n  previous-size-budget:\n    parts:\n      dex: -5%\n", 4, "-5% is not a size budget"),
        ("rules:\n  previous-size-budget:\n    parts: [dex]\n", 3, "must be a mapping")
    ])
    func aWrongBudgetNamesTheFileAndLine(text: String, line: Int, message: String) {
        do {
            _ = try parse(text)
            Issue.record("no error for:\n\(text)")
        } catch {
            #expect(error.path == ".shipcheck.yml" && error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// `shipcheck init`'s commented previous-release keys load once uncommented.
    @Test func theStarterConfigurationsCommentedKeysLoad() throws {
        let lines = StarterConfiguration.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("previous-size-budget:") }),
            let previous = lines.first(where: { $0.hasPrefix("# previous:") })
        else {
            Issue.record("the starter configuration shows no previous-release keys")
            return
        }
        let budget = lines[start..<(start + 5)].map { "  " + $0.dropFirst(3) }
        let configuration = try parse(
            ([String(previous.dropFirst(2)), "rules:"] + budget).joined(separator: "\n") + "\n")
        #expect(configuration.settings(PreviousReleaseSettings.self).previous == "releases/App-2.3.ipa")
        #expect(configuration.options(for: SizeBudgetRule.self).total == .percent(5))
    }
}
