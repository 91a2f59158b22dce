import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import BinaryInspect

/// Every binary rule's examples judged the way real input is: the example written as an ELF
/// shared library (`BinaryExampleELF`), read by what `shipcheck binary FILE` runs
/// (`BinaryInspector.run(paths:)`), and its findings compared with the `↓` markers at the places
/// the file holds each line's record. An input error fails the example: one the readers cannot
/// read tests nothing. Examples of facts only Mach-O states are written as Mach-O instead
/// (`BinaryRuleMachOBytesTests`).
@Suite(.needsELF) struct BinaryRuleBytesTests {
    static let ruleIDs = BinaryInspector.ownRules(among: RuleRegistry.rules)
        .filter { !BinaryInspector.isBundleRule($0) }.descriptions.map(\.id)

    /// The rule's examples of the binary text form (a rule checked in projects too keeps those).
    static func artifactExamples(_ id: String) throws -> RuleDescription {
        try #require(RuleRegistry.descriptions.first { $0.id == id }).examples(where: \.isArtifactExample)
    }

    @Test(arguments: ruleIDs)
    func ruleAgreesWithItsExamplesThroughELF(_ id: String) throws {
        let rule = try Self.artifactExamples(id).examples { !BinaryExampleELF.needsMachO($0) }
        let inspector = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)
        var inputFailures: [String] = []
        let failures = try RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            let (bytes, _, places) = try BinaryExampleELF.write(text)
            let directory = TemporaryDirectory("shipcheck-binary-example")
            let file = directory.write("libExample.so", bytes: bytes)
            let result = inspector.run(paths: [file])
            if !result.inputErrors.isEmpty || result.filesScanned != 1 {
                inputFailures.append(
                    "\(id): \(result.filesScanned) files, input errors \(result.inputErrors.map(\.description)) in:\n\(text)"
                )
            }
            return RuleExampleVerifier.Scanned(result.findings, places: places)
        }
        #expect((failures + inputFailures).isEmpty, "\((failures + inputFailures).joined(separator: "\n\n"))")
    }

    /// Every example's facts read back from its file as its text states them: a fact no rule
    /// trips on today is still one the readers must not lose.
    @Test(arguments: ruleIDs)
    func everyExampleReadsBackAsWritten(_ id: String) throws {
        let rule = try Self.artifactExamples(id)
        for example in rule.triggeringExamples + rule.nonTriggeringExamples
        where !BinaryExampleELF.needsMachO(example) {
            let text = try example.unmarked.text
            let (bytes, written, _) = try BinaryExampleELF.write(text)
            let file = try BinaryFile(bytes: bytes, path: "libExample.so")
            #expect(file.errors.isEmpty && file.images.count == 1, "\(file.errors) in:\n\(text)")
            for image in file.images {
                let differences = Self.differences(try BinaryContentsReader.read(image), from: written)
                #expect(differences.isEmpty, "\(differences.joined(separator: "\n")) in:\n\(text)")
            }
        }
    }

    /// Every keyword ELF states, several of a kind (the rules' examples have no `symbol` line,
    /// one comment, one debug section), read back as written, each line's record at a place
    /// in the file.
    @Test func everyELFKeywordReadsBackAsWritten() throws {
        let text = """
            type class App.Outer: App.Base
            type struct App.Outer.Inner
            type enum App.Source
            protocol App.Clocking
            conformance App.Outer.Inner: App.Clocking
            conformance App.Clock: SwiftUI.PreviewProvider
            field App.Planner.clock: App.MockClock, Swift.String
            field App.Planner.source: App.Source
            case App.Source.mock: App.MockClock
            test-record test
            test-record exit
            string /Users/alice/App
            string Lorem ipsum dolor sit amet
            needed libXCTest.so
            needed libswiftCore.so
            autolink -lswiftCore
            comment clang version 17
            comment Swift version 6.3.1
            build-id 0011aabb
            section .debug_info 4096
            section .debug_line 12
            symbol $s3App9MockClockC 12
            symbol $s3App5ClockV 100
            """
        let (bytes, written, places) = try BinaryExampleELF.write(text)
        let file = try BinaryFile(bytes: bytes, path: "libExample.so")
        let image = try #require(file.images.first)
        let differences = Self.differences(try BinaryContentsReader.read(image), from: written)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(written.symbols.count == 2 && written.metadata.fields.count == 3 && written.buildFacts.count == 3)
        // A synthetic offset is the line's number; the file's sections start past its headers.
        let unmoved = places.places.filter { $0.section == "example" || ($0.offset ?? 100) < 100 }
        #expect(unmoved.isEmpty, "lines left at their synthetic place: \(unmoved.map(\.line))")
    }

    /// Each fact the example text sets, as read and as written, where they differ.
    static func differences(_ read: BinaryContents, from written: BinaryContents) -> [String] {
        let facts: [(String, (BinaryContents) -> [String])] = [
            ("types", { $0.metadata.types.map { "\($0.kind) \($0.name): \($0.superclass ?? "-")" } }),
            ("conformances", { $0.metadata.conformances.map { "\($0.typeName): \($0.protocolName)" } }),
            ("protocols", { $0.metadata.protocols.map(\.name) }),
            (
                "fields",
                {
                    $0.metadata.fields.map {
                        "\($0.isEnumCase ? "case" : "field") \($0.ownerName).\($0.name): \($0.typeNames)"
                    }
                }
            ),
            ("test records", { $0.metadata.tests.map { "\($0.kind) \($0.size) \($0.accessor ?? "-")" } }),
            ("Objective-C classes", { $0.metadata.objcClasses.map { "\($0.name): \($0.superclass ?? "-")" } }),
            ("strings", { $0.strings.map(\.text) }),
            ("symbols", { $0.symbols.map { "\($0.mangled) \($0.size)" } + ["symbol table: \($0.hasSymbolTable)"] }),
            ("libraries", { $0.libraries.map { "\($0.kind) \($0.name) \($0.record) \($0.section)" } }),
            ("build facts", { $0.buildFacts.map { "\($0.section ?? "-"): \($0.message)" } })
        ]
        return facts.compactMap { name, list in
            let (have, want) = (list(read).sorted(), list(written).sorted())
            return have == want ? nil : "\(name): read \(have), written \(want)"
        }
    }
}
