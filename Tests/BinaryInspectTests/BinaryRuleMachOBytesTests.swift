import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import BinaryInspect

/// The binary rules' examples of facts only Mach-O states (`BinaryExampleELF.needsMachO`),
/// judged the way real input is: written by the Apple writer as an arm64 dylib and the object
/// its linker options sit in (`BinaryExampleMachO`), read by what `shipcheck binary FILE…` runs,
/// and the findings compared with the `↓` markers at the places the files hold each line's
/// record. Mach-O is read without libelf: these run wherever shipcheck does.
@Suite struct BinaryRuleMachOBytesTests {
    /// The rules with examples only Mach-O states.
    static let ruleIDs = BinaryRuleBytesTests.ruleIDs.filter { id in
        (try? BinaryRuleBytesTests.artifactExamples(id))
            .map { ($0.triggeringExamples + $0.nonTriggeringExamples).contains(where: BinaryExampleELF.needsMachO) }
            ?? true
    }

    @Test(arguments: ruleIDs)
    func ruleAgreesWithItsMachOExamples(_ id: String) throws {
        let rule = try BinaryRuleBytesTests.artifactExamples(id).examples(where: BinaryExampleELF.needsMachO)
        let inspector = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)
        var inputFailures: [String] = []
        let failures = try RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            let (files, _, places) = try BinaryExampleMachO.write(text)
            let directory = TemporaryDirectory("shipcheck-binary-example")
            let paths = files.map { directory.write($0.name, bytes: $0.bytes) }
            let result = inspector.run(paths: paths)
            if !result.inputErrors.isEmpty || result.filesScanned != files.count {
                inputFailures.append(
                    "\(id): \(result.filesScanned) of \(files.count) files, input errors \(result.inputErrors.map(\.description)) in:\n\(text)"
                )
            }
            return RuleExampleVerifier.Scanned(result.findings, places: places)
        }
        #expect((failures + inputFailures).isEmpty, "\((failures + inputFailures).joined(separator: "\n\n"))")
    }

    /// Every binary rule example is written by exactly one writer — ELF's or Mach-O's — and
    /// judged by the test of that writer: none is left to its model, none judged twice.
    @Test func everyExampleIsWrittenByOneWriter() throws {
        var machO: [String] = []
        var neither: [String] = [], both: [String] = [], misjudged: [String] = []
        for id in BinaryRuleBytesTests.ruleIDs {
            let rule = try BinaryRuleBytesTests.artifactExamples(id)
            for example in rule.triggeringExamples + rule.nonTriggeringExamples {
                let text = try example.unmarked.text
                let asELF = (try? BinaryExampleELF.write(text)) != nil
                let asMachO = (try? BinaryExampleMachO.write(text)) != nil
                if asELF && asMachO { both.append("\(id): \(example.text)") }
                if !asELF && !asMachO { neither.append("\(id): \(example.text)") }
                if asMachO != BinaryExampleELF.needsMachO(example) {
                    misjudged.append("\(id): \(example.text)")
                }
                if asMachO { machO.append("\(id): \(example.text)") }
            }
        }
        #expect(
            neither.isEmpty && both.isEmpty && misjudged.isEmpty,
            "written by neither: \(neither); by both: \(both); judged by the other writer's test: \(misjudged)")
        #expect(machO.count >= 8, "the Mach-O examples: \(machO)")
    }

    /// Each Mach-O example's facts — libraries with their load command, Objective-C classes
    /// with their superclasses, the UUID — read back from its files as its text states them
    /// (the image's other facts, its platform and signature, are the writer's, not the text's).
    @Test func everyMachOExampleReadsBackAsWritten() throws {
        for id in Self.ruleIDs {
            let rule = try BinaryRuleBytesTests.artifactExamples(id)
            for example in rule.triggeringExamples + rule.nonTriggeringExamples
            where BinaryExampleELF.needsMachO(example) {
                let text = try example.unmarked.text
                let (files, written, _) = try BinaryExampleMachO.write(text)
                var read = BinaryContents(path: "Example")
                for (name, bytes) in files {
                    let file = try BinaryFile(bytes: bytes, path: name)
                    #expect(file.errors.isEmpty && file.images.count == 1, "\(name): \(file.errors) in:\n\(text)")
                    for image in file.images {
                        let contents = try BinaryContentsReader.read(image)
                        read.libraries += contents.libraries
                        read.metadata.objcClasses += contents.metadata.objcClasses
                        read.buildFacts += contents.buildFacts.filter { $0.identity == "uuid" }
                    }
                }
                let differences = BinaryRuleBytesTests.differences(read, from: written)
                #expect(differences.isEmpty, "\(differences.joined(separator: "\n")) in:\n\(text)")
            }
        }
    }
}
