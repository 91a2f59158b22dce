import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import BinaryInspect

/// `binary-mock-symbol` reports a matched type the product's own code uses as a note: read from
/// the field descriptors (`swift5_fieldmd`) and conformances of real ELF and Mach-O files
/// (Tests/Fixtures/macho/src/MockUsage), and on synthetic contents for each way of using a type.
@Suite struct MockUsageTests {
    static var fixtures: [String] {
        ["libMockUsage.dylib", "libMockUsage-stripped.dylib"] + (ELFSupport.isBuilt ? ["libMockUsage-linux.so"] : [])
    }

    @Test(arguments: fixtures)
    func fieldDescriptorsNameEachStoredPropertyItsOwnerAndItsTypes(_ fixture: String) throws {
        let file = try BinaryFile(path: Repository.machOFixture(fixture))
        let image = try #require(file.images.first)
        let fields = try BinaryContentsReader.read(image).metadata.fields
        func field(_ owner: String, _ name: String) -> SwiftFieldRecord? {
            fields.first { $0.ownerName == "MockUsage.\(owner)" && $0.name == name }
        }
        #expect(field("Planner", "stub")?.typeNames == ["MockUsage.StubBinary"])
        // A generic: both symbolic references of `Box<StubExecutable>` resolve.
        #expect(field("Planner", "executable")?.typeNames == ["MockUsage.Box", "MockUsage.StubExecutable"])
        #expect(field("Box", "value") == nil, "a generic parameter names no nominal type")
        #expect(field("MockScheduler", "timer")?.typeNames == ["MockUsage.MockTimer"])
        let mockCase = try #require(field("ClockSource", "mock"))
        #expect(mockCase.isEnumCase && mockCase.typeNames == ["MockUsage.MockClock"])
        #expect(field("ClockSource", "system")?.isEnumCase == true)
        #expect(fields.allSatisfy { $0.place.section.hasSuffix("swift5_fieldmd") })
    }

    @Test(arguments: fixtures)
    func storedAndPluggedInStubsAreNotesTheLeakedDoublesWarnings(_ fixture: String) {
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [
            Repository.machOFixture(fixture)
        ])
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let mocks = result.findings.filter { $0.ruleID == "binary-mock-symbol" }
        #expect(
            Set(mocks.filter { $0.severity == .warning }.compactMap(\.snippet))
                == ["MockUsage.MockClock", "MockUsage.MockTimer", "MockUsage.MockScheduler"])
        let notes = Dictionary(
            uniqueKeysWithValues: mocks.filter { $0.severity == .note }.map { ($0.snippet ?? "", $0.message) })
        #expect(
            notes.keys.sorted() == ["MockUsage.StubBinary", "MockUsage.StubBinaryProducer", "MockUsage.StubExecutable"])
        #expect(
            notes["MockUsage.StubBinary"]?.contains("the product uses it: MockUsage.Planner.stub (stored property)")
                == true)
        #expect(notes["MockUsage.StubExecutable"]?.contains("MockUsage.Planner.executable (stored property)") == true)
        #expect(notes["MockUsage.StubBinaryProducer"]?.contains("conformance to MockUsage.TaskProducer") == true)
    }

    /// `rules: binary-mock-symbol: error` makes the leaked doubles errors; the stubs the product
    /// uses stay notes (the evidence did not change); `off` drops both.
    @Test func aConfiguredSeverityRaisesTheDoublesNotTheProductsStubs() {
        var configuration = Configuration()
        configuration.ruleSeverities["binary-mock-symbol"] = .error
        let path = Repository.machOFixture("libMockUsage.dylib")
        let raised = BinaryInspector(configuration: configuration, rules: RuleRegistry.rules).run(paths: [path])
            .finalized(configuration: configuration).findings.filter { $0.ruleID == "binary-mock-symbol" }
        #expect(
            Set(raised.filter { $0.severity == .error }.compactMap(\.snippet))
                == ["MockUsage.MockClock", "MockUsage.MockTimer", "MockUsage.MockScheduler"])
        #expect(
            Set(raised.filter { $0.severity == .note }.compactMap(\.snippet))
                == ["MockUsage.StubBinary", "MockUsage.StubBinaryProducer", "MockUsage.StubExecutable"])
        configuration.ruleSeverities["binary-mock-symbol"] = .some(nil)
        let off = BinaryInspector(configuration: configuration, rules: RuleRegistry.rules).run(paths: [path])
            .finalized(configuration: configuration).findings.filter { $0.ruleID == "binary-mock-symbol" }
        #expect(off.isEmpty)
    }

    private func mockFinding(_ example: String, _ name: String) throws -> Finding? {
        try BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).check(
            BinaryContents(example: example)
        )
        .first { $0.ruleID == "binary-mock-symbol" && $0.snippet == name }
    }

    @Test func aStoredPropertyOfAProductTypeIsUseAndSaysWhere() throws {
        let finding = try #require(
            try mockFinding(
                """
                type struct Build.StubBinary
                type class Build.Planner
                field Build.Planner.stub: Build.StubBinary
                field Build.Planner.others: Swift.Array, Build.StubBinary
                """, "Build.StubBinary"))
        #expect(finding.severity == .note)
        #expect(
            finding.message.contains(
                "but the product uses it: Build.Planner.stub (stored property), Build.Planner.others (stored property), so it is likely product code"
            ))
        #expect(finding.fixHint?.hasPrefix("none needed if it is product code") == true)
    }

    @Test func aStoredPropertyOfANestedTypeCountsForTheReportedParent() throws {
        let finding = try #require(
            try mockFinding(
                """
                type class Build.StubBinary
                type struct Build.StubBinary.Slice
                type class Build.Planner
                field Build.Planner.slice: Build.StubBinary.Slice
                """, "Build.StubBinary"))
        #expect(finding.severity == .note && finding.message.contains("with 1 nested type"))
    }

    @Test(arguments: [
        ("held by an enum case", "case Files.Source.mock: Files.MockClock"),
        (
            "stored by a test case",
            "type class App.ClockTests: XCTest.XCTestCase\nfield App.ClockTests.clock: Files.MockClock"
        ),
        (
            "stored by another double",
            "type class Files.MockScheduler\nfield Files.MockScheduler.clock: Files.MockClock"
        ),
        ("stored by a type of the test library", "field XCTest.Harness.clock: Files.MockClock"),
        (
            "stored by a type conforming to a test protocol",
            "conformance Files.Suite: Testing.Trait\nfield Files.Suite.clock: Files.MockClock"
        ),
        ("storing itself", "field Files.MockClock.next: Files.MockClock"),
        ("conforming to the seam it is named after", "protocol Files.Clock\nconformance Files.MockClock: Files.Clock"),
        (
            "conforming to a seam whose name contains its own",
            "protocol Files.ClockProtocol\nconformance Files.MockClock: Files.ClockProtocol"
        ),
        ("conforming to a protocol of another image", "conformance Files.MockClock: Swift.Hashable"),
        ("conforming to a test protocol", "protocol Files.TimerStub\nconformance Files.MockClock: Files.TimerStub"),
        (
            "subclassing the class it doubles",
            "type class Files.SystemClock\ntype class Files.MockClock: Files.SystemClock"
        ),
        ("subclassing a class of another image", "type class Files.MockClock: Foundation.NSObject")
    ])
    func testUsesAndDoublesRolesStayWarnings(_ label: String, _ uses: String) throws {
        let finding = try #require(
            try mockFinding("type class Files.MockClock\n" + uses, "Files.MockClock"), "\(label)")
        #expect(finding.severity == .warning, "\(label): \(finding.message)")
        #expect(!finding.message.contains("the product uses it"), "\(label)")
    }

    @Test(arguments: [
        (
            "a product protocol's implementation",
            "protocol Build.TaskProducer\nconformance Build.StubBinaryProducer: Build.TaskProducer",
            "conformance to Build.TaskProducer"
        ),
        (
            "a product class's subclass",
            "type class Build.TaskAction\ntype class Build.StubBinaryProducer: Build.TaskAction",
            "subclass of Build.TaskAction"
        )
    ])
    func productExtensionPointsAreUse(_ label: String, _ uses: String, _ how: String) throws {
        let finding = try #require(
            try mockFinding("type class Build.StubBinaryProducer\n" + uses, "Build.StubBinaryProducer"))
        #expect(finding.severity == .note, "\(label)")
        #expect(finding.message.contains("the product uses it: \(how)"), "\(label): \(finding.message)")
    }

    /// Product code found through one matched type makes its stored properties count for others
    /// (swift-build: `GlobalStubBinaryTaskProducer.StubBinaryWithArchs.stubBinary`).
    @Test func aStubFoundToBeProductCodeMakesWhatItStoresProductCodeToo() throws {
        let example = """
            type struct Build.StubBinary
            type class Build.GlobalStubBinaryProducer
            type struct Build.GlobalStubBinaryProducer.StubBinaryWithArchs
            protocol Build.TaskProducer
            conformance Build.GlobalStubBinaryProducer: Build.TaskProducer
            field Build.GlobalStubBinaryProducer.StubBinaryWithArchs.stubBinary: Build.StubBinary
            """
        let finding = try #require(try mockFinding(example, "Build.StubBinary"))
        #expect(finding.severity == .note)
        #expect(
            finding.message.contains("Build.GlobalStubBinaryProducer.StubBinaryWithArchs.stubBinary (stored property)"))
        // Without the conformance, the producer is just another matched type: no use.
        let alone = try #require(
            try mockFinding(
                example.replacingOccurrences(
                    of: "conformance Build.GlobalStubBinaryProducer: Build.TaskProducer", with: ""),
                "Build.StubBinary"))
        #expect(alone.severity == .warning)
    }

    @Test func typeNamesAreReadOutOfADemangledType() {
        #expect(
            LinkedMetadataDecoder.typeNames(inDemangled: "Swift.Dictionary<Swift.String, [App.Store]>?")
                == ["Swift.Dictionary", "Swift.String", "App.Store"])
        #expect(LinkedMetadataDecoder.typeNames(inDemangled: "(name: Swift.Int) -> ()") == ["Swift.Int"])
    }
}
