import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import SourceScan

/// Generated files (a Sourcery mock, SwiftGen output): the run-time rules leave them alone, the
/// preview rules do not, and the configuration can name either way.
@Suite struct GeneratedFileTests {
    /// A closure a main-actor function stores in a `nonisolated(unsafe)` var, and a preview.
    static let body = """
        import SwiftUI

        enum Hooks {
            nonisolated(unsafe) static var willTerminate: () -> Void = {}
        }

        @MainActor func configureHooks() {
            Hooks.willTerminate = { print("bye") }
        }

        #Preview { Text("mock") }
        """
    static let sourcery =
        "// Generated using Sourcery 2.2.5 — https://github.com/krzysztofzablocki/Sourcery\n// DO NOT EDIT\n" + body

    @Test func handWrittenFileGetsBothRules() {
        #expect(places(Self.body) == ["4:36 unchecked-sendable-closure", "11:1 preview-outside-debug"])
    }

    @Test func generatedFileGetsThePreviewRuleOnly() {
        #expect(places(Self.sourcery) == ["13:1 preview-outside-debug"])
    }

    @Test func checkGeneratedTurnsARuleBackOn() {
        var configuration = Configuration()
        configuration.checkGenerated = ["unchecked-sendable-closure"]
        #expect(
            places(Self.sourcery, configuration: configuration) == [
                "6:36 unchecked-sendable-closure", "13:1 preview-outside-debug"
            ])
    }

    @Test func generatedGlobsMarkFilesAndANegatedOneUnmarksThem() {
        var configuration = Configuration()
        configuration.generated = GlobList(["API/**"])
        #expect(
            places(Self.body, path: "API/Hooks.swift", configuration: configuration) == ["11:1 preview-outside-debug"])
        configuration.generated = GlobList(["Mocks/**", "!Mocks/Hooks.swift"])
        #expect(
            places(Self.sourcery, path: "Mocks/Hooks.swift", configuration: configuration) == [
                "6:36 unchecked-sendable-closure", "13:1 preview-outside-debug"
            ])
    }

    @Test func explanationsSayWhichFilesAreGeneratedAndWhy() {
        let result = scan(["Mocks/GeneratedMocks.swift": Self.sourcery, "App/Hooks.swift": Self.body])
        #expect(
            result.explanations.map(\.noteDescription) == [
                "Mocks/GeneratedMocks.swift: note: generated (Sourcery header, line 1: \"// Generated using Sourcery 2.2.5 — https://github.com/krzysztofzablocki/Sourcery\"): "
                    + "not checked by state-built-in-init, dynamic-property-captures-self, unchecked-sendable-closure"
            ])
    }

    @Test func noExplanationWhenEveryRuleReportsInGeneratedFiles() {
        var configuration = Configuration()
        configuration.checkGenerated = [
            "state-built-in-init", "dynamic-property-captures-self", "unchecked-sendable-closure"
        ]
        #expect(scan(["Mocks/GeneratedMocks.swift": Self.sourcery], configuration: configuration).explanations.isEmpty)
    }
}
