import ShipcheckTestSupport
import Testing

/// Reflection metadata (field descriptors and the mangled type names they point at), damaged
/// in the ways that could make its reader read out of bounds, loop or stall, in the ELF and
/// Mach-O fixtures of the mock-usage rule. Damaged reflection metadata is skipped, not an input
/// error: every file is still audited from its intact type records.
extension HostileInputTests {
    @Test func damagedFieldDescriptorsAndMangledNamesAreSkipped() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-fieldmd")
        var damaged: [String] = []
        var generator = SeededGenerator(seed: 0x4649_454C)
        for fixture in ["libMockUsage.dylib"] + (TestPlatform.readsELF ? ["libMockUsage-linux.so"] : []) {
            let bytes = HostileInputFixtures.bytes(Repository.machOFixture(fixture))
            let isELF = bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46])
            func section(_ name: String) throws -> Range<Int> {
                try #require(
                    isELF
                        ? HostileInputFixtures.section(named: name, of: bytes)
                        : MachOLayout(bytes).section(named: "__" + name))
            }
            let fields = try section("swift5_fieldmd"), typeRefs = try section("swift5_typeref")
            func write(_ name: String, _ patch: (inout [UInt8]) -> Void) {
                var copy = bytes
                patch(&copy)
                damaged.append(directory.write("\(fixture).\(name)", bytes: copy))
            }
            func store(_ value: UInt32, at offset: Int, in copy: inout [UInt8]) {
                for index in 0..<4 { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
            }
            // The first descriptor's record count and record size (kind u16, size u16, count u32 at +8).
            write("count") { store(0xFFFF_FFFF, at: fields.lowerBound + 12, in: &$0) }
            write("record-size-0") { store(0x0000_0000, at: fields.lowerBound + 8, in: &$0) }
            write("record-size-4") { store(0x0004_0000, at: fields.lowerBound + 8, in: &$0) }
            // Every word of the descriptors as the farthest offset either way or as -1 (a pointer
            // into the middle of its own field), in turn.
            let values: [UInt32] = [0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]
            for (index, word) in stride(from: fields.lowerBound, to: fields.upperBound, by: 4).enumerated() {
                write("word-\(word - fields.lowerBound)") { store(values[index % values.count], at: word, in: &$0) }
            }
            write("random") { copy in
                for offset in fields { copy[offset] = UInt8.random(in: 0...255, using: &generator) }
            }
            // Mangled names: symbolic references (direct, indirect, unknown kinds) that point at
            // themselves, far away or at each other; names without their NUL; absolute references.
            for (name, reference) in [
                ("self-direct", (1, 0xFFFF_FFFF)), ("self-indirect", (2, 0xFFFF_FFFF)),
                ("far-direct", (1, 0x7FFF_FFF0)),
                ("far-indirect", (2, 0x8000_0010)), ("next", (1, 0x0000_0004)), ("kind-9", (9, 0xFFFF_FFFF))
            ] as [(String, (UInt8, UInt32))] {
                write("typeref-\(name)") { copy in
                    for start in stride(from: typeRefs.lowerBound, to: typeRefs.upperBound - 5, by: 5) {
                        copy[start] = reference.0
                        store(reference.1, at: start + 1, in: &copy)
                    }
                }
            }
            write("typeref-unterminated") { copy in for offset in typeRefs { copy[offset] = UInt8(ascii: "A") } }
            write("typeref-absolute") { copy in for offset in typeRefs { copy[offset] = 0x18 } }
        }
        let run = HostileRunner.shipcheck(["binary"] + damaged, timeout: 120)
        expectSurvived(run, "binary on \(damaged.count) damaged reflection sections")
        #expect(run.exitStatus == 0, "damaged reflection metadata is not an input error: \(run.stderr.prefix(2000))")
        #expect(run.errorLines.isEmpty, "\(run.stderr.prefix(2000))")
        // Piped output: `path:section:0xoffset: warning: type MockClock …` for each file.
        let audited = Set(
            run.stdout.split(separator: "\n").filter { $0.contains(": warning: type MockClock in module MockUsage") }
                .map { String($0.prefix { $0 != ":" }) })
        #expect(audited == Set(damaged), "not audited: \(Set(damaged).subtracting(audited).sorted())")
    }
}
