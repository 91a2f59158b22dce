import Foundation
import ShipcheckTestSupport
import Testing

/// Damaged Mach-O files, universal files and archives, derived in code from the committed
/// fixtures: each is one error line naming the file (and slice or member), never a crash or a
/// hang, exit 2, and the intact fixture beside them is still audited and listed.
extension HostileInputTests {
    static var machOExecutable: String { Repository.machOFixture("App-ios") }
    static var machOIntact: String { Repository.machOFixture("App-macos") }

    @Test func machOTruncatedAtEveryLoadCommandAndSegmentBoundary() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-macho-cut")
        var damaged: [String] = []
        for fixture in ["App-ios", "AppLib.o"] {
            let bytes = HostileInputFixtures.bytes(Repository.machOFixture(fixture))
            let layout = MachOLayout(bytes)
            var cuts = Set(layout.commands.flatMap { [$0.offset, $0.offset + 4, $0.offset + $0.size - 1] })
            cuts.formUnion(layout.segmentBoundaries)
            for cut in cuts.filter({ $0 > 0 && $0 < bytes.count }).sorted() {
                damaged.append(directory.write("\(fixture).cut-\(cut)", bytes: Array(bytes.prefix(cut))))
            }
        }
        try expectBinaryRunsReportEach(damaged, label: "Mach-O truncations", intact: Self.machOIntact)
    }

    @Test func machOTruncatedAtSeededRandomOffsets() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-macho-random")
        var generator = SeededGenerator(seed: 0x4D41_4348)
        let bytes = HostileInputFixtures.bytes(Self.machOExecutable)
        let damaged = Set((0..<40).map { _ in Int.random(in: 1..<bytes.count, using: &generator) }).sorted().map {
            cut in
            directory.write("App-ios.at-\(cut)", bytes: Array(bytes.prefix(cut)))
        }
        try expectBinaryRunsReportEach(damaged, label: "Mach-O random truncations", intact: Self.machOIntact)
    }

    /// The 32-bit structures (`mach_header`, `LC_SEGMENT`, `nlist`, DYLD_CHAINED_PTR_32 fixups)
    /// cut at every load command's start, inside its header and at its last byte, and at seeded
    /// random offsets.
    @Test func thirtyTwoBitMachOTruncatedAtCommandsAndRandomOffsets() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-macho-32")
        let bytes = HostileInputFixtures.bytes(Repository.machOFixture("WatchApp-arm64_32-chained"))
        var cuts = Set<Int>()
        var offset = 28
        for _ in 0..<Int(HostileInputFixtures.readLE(bytes, at: 16, size: 4)) {
            let size = Int(HostileInputFixtures.readLE(bytes, at: offset + 4, size: 4))
            cuts.formUnion([offset, offset + 4, offset + size - 1])
            offset += size
        }
        var generator = SeededGenerator(seed: 0x4D41_3332)
        cuts.formUnion((0..<30).map { _ in Int.random(in: 1..<bytes.count, using: &generator) })
        let damaged = cuts.sorted().map { cut in
            directory.write("WatchApp.at-\(cut)", bytes: Array(bytes.prefix(cut)))
        }
        #expect(damaged.count > 40)
        try expectBinaryRunsReportEach(damaged, label: "32-bit Mach-O truncations", intact: Self.machOIntact)
    }

    /// Each field that points into the file, pointed past its end; a command table claiming
    /// millions of commands; a chained-fixup chain that runs on past its page; a fixup format
    /// no 64-bit image uses.
    @Test func machOFieldsPointingPastTheEndAndHostileCounts() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-macho-fields")
        let bytes = HostileInputFixtures.bytes(Self.machOExecutable)
        let layout = MachOLayout(bytes)
        let huge = UInt64(bytes.count) + 0x10_0000
        var cases: [(name: String, bytes: [UInt8], message: String)] = []
        func patched(_ offset: Int, _ value: UInt64, _ width: Int) -> [UInt8] {
            var copy = bytes
            for index in 0..<width { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
            return copy
        }
        cases.append(("ncmds", patched(16, 5_000_000, 4), "5000000 load commands cannot fit"))
        cases.append(("sizeofcmds", patched(20, huge, 4), "load commands (\(huge) bytes) run past the end"))
        let symtab = try #require(layout.command(0x2))
        cases.append(("symoff", patched(symtab.offset + 8, huge, 4), "the symbol table (offset \(huge)"))
        cases.append(("stroff", patched(symtab.offset + 16, huge, 4), "the string table (offset \(huge)"))
        let segment = try #require(
            layout.commands.first { $0.command == 0x19 && layout.segmentName($0) == "__DATA_CONST" })
        cases.append(("segment", patched(segment.offset + 40, huge, 8), "segment __DATA_CONST (offset \(huge)"))
        cases.append(("section", patched(segment.offset + 72 + 48, UInt32.max.asUInt64, 4), "runs past the end"))
        let fixups = try #require(layout.command(0x8000_0034))
        cases.append(("fixups", patched(fixups.offset + 8, huge, 4), "the chained fixups (offset \(huge)"))
        let chain = try #require(layout.firstChainedFixup())
        var runaway = bytes
        runaway[chain.location + 6] |= 0xF8  // next = 0xFFF strides: past the page
        runaway[chain.location + 7] = (runaway[chain.location + 7] & 0x80) | 0x7F
        cases.append(("chain", runaway, "runs past its page"))
        cases.append(
            ("format", patched(chain.segmentStarts + 6, 3, 2), "pointer format 3, not a 64-bit user-space format"))
        cases.append(("pages", patched(chain.segmentStarts + 20, 0xFFFE, 2), "pages of"))
        let paths = cases.map { directory.write("App-ios.\($0.name)", bytes: $0.bytes) }
        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck([command] + paths + [Self.machOIntact])
            expectSurvived(run, "\(command) on Mach-O fields past the end")
            #expect(run.exitStatus == 2)
            #expect(run.stdout.contains("PublicCard_Previews"))
            if command == "binary" {
                for (path, damage) in zip(paths, cases) {
                    #expect(
                        run.errorLines.contains {
                            $0.hasPrefix("shipcheck: \(path): error: ") && $0.contains(damage.message)
                        },
                        "\(damage.name): \(run.stderr)")
                }
                #expect(run.errorLines.count == cases.count, "\(run.stderr)")
            }
        }
    }

    /// Every bit of the header and the first load commands, flipped one at a time.
    @Test func machOBitFlippedHeaderAndLoadCommands() throws {
        let bytes = HostileInputFixtures.bytes(Repository.machOFixture("AppLib.o"))
        try expectBitFlipsReportedByName(
            of: bytes, in: [0..<256], directory: TemporaryDirectory("shipcheck-hostile-macho-flip"),
            intact: Self.machOIntact)
    }

    @Test func universalFileWithOverlappingOrUnsupportedSlices() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-fat")
        let bytes = HostileInputFixtures.bytes(Repository.machOFixture("App-universal"))
        func patchedBE(_ offset: Int, _ value: UInt32) -> [UInt8] {
            var copy = bytes
            for index in 0..<4 { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(3 - index))) }
            return copy
        }
        // fat_arch entries (20 bytes from offset 8): cputype, cpusubtype, offset, size, align.
        let firstOffset = UInt32(HostileInputFixtures.readBE(bytes, at: 8 + 8))
        let overlapping = directory.write("App-overlapping", bytes: patchedBE(8 + 20 + 8, firstOffset))
        let outside = directory.write("App-outside", bytes: patchedBE(8 + 20 + 12, 0x7FFF_FFFF))
        let armv7 = directory.write("App-armv7", bytes: patchedBE(8, 12))  // the x86_64 slice listed as 32-bit ARM
        let java = directory.write("App-java", bytes: patchedBE(4, 52))  // a Java class file's version as the count
        let run = HostileRunner.shipcheck(["binary", overlapping, outside, armv7, java, Self.machOIntact])
        expectSurvived(run, "binary on damaged universal files")
        #expect(run.exitStatus == 2)
        #expect(
            run.stderr.contains(
                "App-overlapping: error: corrupt universal file: slice 1 (arm64) overlaps the x86_64 slice"),
            "\(run.stderr)")
        #expect(run.stderr.contains("App-outside: error: corrupt universal file: slice 1 (arm64"), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "App-armv7[arm]: error: corrupt universal file: the table lists arm code, the slice holds x86_64"),
            "\(run.stderr)")
        #expect(
            run.stderr.contains("App-java: error: corrupt universal file: 52 slices (a Java class file?)"),
            "\(run.stderr)")
        #expect(run.errorLines.count == 4, "\(run.stderr)")
        // The mislabelled slice is reported; the arm64 slice beside it is still audited.
        #expect(run.stdout.contains("App-armv7[arm64]:"), "\(run.stdout.prefix(500))")
        #expect(run.stdout.contains("App-macos:"))
    }

    /// Headers whose size does not fit their CPU, big-endian (PowerPC) files and CPUs nobody
    /// ships for: one line each saying so, for `binary` and `symbols`; the slice beside them is
    /// still read.
    @Test func mismatchedBigEndianAndUnknownCPUsAreNamedNotRead() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-macho-cpu")
        let thin = HostileInputFixtures.bytes(Self.machOExecutable)
        func patched(_ bytes: [UInt8], _ fields: [(offset: Int, value: UInt32, bigEndian: Bool)]) -> [UInt8] {
            var copy = bytes
            for field in fields {
                for index in 0..<4 {
                    copy[field.offset + index] = UInt8(
                        truncatingIfNeeded: field.value >> (8 * UInt32(field.bigEndian ? 3 - index : index)))
                }
            }
            return copy
        }
        // mach_header: magic, cputype, cpusubtype (little-endian in the files shipcheck reads).
        let cases: [(name: String, bytes: [UInt8], message: String)] = [
            (
                "armv7", patched(thin, [(4, 12, false), (8, 9, false)]),
                "error: corrupt Mach-O file: a 64-bit header for armv7 code"
            ),
            (
                "arm64_32", patched(thin, [(4, 0x0200_000C, false), (8, 1, false)]),
                "error: corrupt Mach-O file: a 64-bit header for arm64_32 code"
            ),
            ("ppc", patched(thin, [(0, 0xFEED_FACE, true)]), "error: big-endian Mach-O file (PowerPC): not supported"),
            (
                "unknown", patched(thin, [(4, 0x0100_0099, false)]),
                "error: unknown CPU (cpu type 16777369 subtype 0): only ARM and Intel code is supported"
            )
        ]
        var paths = cases.map { directory.write("App-\($0.name)", bytes: $0.bytes) }
        // A universal file whose first slice (x86_64) claims an unknown CPU: that slice is the error.
        let universal = HostileInputFixtures.bytes(Repository.machOFixture("App-universal"))
        paths.append(directory.write("App-fat-unknown", bytes: patched(universal, [(8, 0x0100_0099, true)])))
        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck([command] + paths)
            expectSurvived(run, "\(command) on mismatched and unknown CPUs")
            #expect(run.exitStatus == 2)
            for (path, damage) in zip(paths, cases) {
                #expect(
                    run.errorLines.contains { $0.hasPrefix("shipcheck: \(path): ") && $0.contains(damage.message) },
                    "\(damage.name): \(run.stderr)")
            }
            #expect(
                run.errorLines.contains {
                    $0.hasPrefix("shipcheck: \(paths.last!)[cpu type 16777369 subtype 3]: error: unknown CPU")
                }, "\(run.stderr)")
            #expect(run.errorLines.count == paths.count, "\(run.stderr)")
            #expect(run.stdout.contains("App-fat-unknown[arm64]"), "the supported slice is still read")
        }
    }

    @Test func archiveMemberClaimingBytesPastTheEnd() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-macho-archive")
        var members = HostileInputFixtures.archiveMembers(
            HostileInputFixtures.bytes(Repository.machOFixture("libAppTestSupport.a")))
        let last = members.count - 1
        var archive = HostileInputFixtures.archive(Array(members[..<last]))
        members[last].header.replaceSubrange(48..<58, with: Array("9999999999".utf8))
        archive += members[last].header + members[last].body
        let path = directory.write("libDamaged.a", bytes: archive)
        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck([command, path])
            expectSurvived(run, "\(command) on an archive member past the end")
            #expect(run.exitStatus == 2)
            #expect(run.errorLines.count == 1, "\(run.stderr)")
            #expect(
                run.stderr.contains(
                    "libDamaged.a(Fixtures-linux.o): error: corrupt archive: member claims 9999999999 bytes, past the end"
                ), "\(run.stderr)")
            #expect(
                run.stdout.contains("Fixtures.o") && run.stdout.contains("AppTestSupport-LoginTestCase.o"),
                "the members before it are still read")
        }
    }
}

/// Where the load commands, segments and chained fixups of a 64-bit Mach-O image are, read
/// independently of shipcheck's reader (so a damaged copy can target one field).
struct MachOLayout {
    struct Command {
        var offset: Int
        var command: UInt32
        var size: Int
    }

    let bytes: [UInt8]
    let commands: [Command]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var commands: [Command] = []
        var offset = 32
        for _ in 0..<Int(HostileInputFixtures.readLE(bytes, at: 16, size: 4)) {
            let size = Int(HostileInputFixtures.readLE(bytes, at: offset + 4, size: 4))
            commands.append(
                Command(
                    offset: offset, command: UInt32(HostileInputFixtures.readLE(bytes, at: offset, size: 4)), size: size
                ))
            offset += size
        }
        self.commands = commands
    }

    func command(_ command: UInt32) -> Command? { commands.first { $0.command == command } }

    func segmentName(_ command: Command) -> String {
        String(decoding: bytes[command.offset + 8..<command.offset + 24].prefix { $0 != 0 }, as: UTF8.self)
    }

    private func field(_ offset: Int, _ size: Int) -> Int {
        Int(HostileInputFixtures.readLE(bytes, at: offset, size: size))
    }

    /// A section's contents in the file (`__swift5_fieldmd`), from the segments' section tables.
    func section(named name: String) -> Range<Int>? {
        for segment in commands where segment.command == 0x19 {
            for index in 0..<field(segment.offset + 64, 4) {
                let header = segment.offset + 72 + 80 * index
                guard String(decoding: bytes[header..<header + 16].prefix { $0 != 0 }, as: UTF8.self) == name else {
                    continue
                }
                let offset = field(header + 48, 4)
                return offset..<offset + field(header + 40, 8)
            }
        }
        return nil
    }

    /// Where each segment's contents start and end in the file.
    var segmentBoundaries: [Int] {
        commands.filter { $0.command == 0x19 }.flatMap {
            [field($0.offset + 40, 8), field($0.offset + 40, 8) + field($0.offset + 48, 8)]
        }
    }

    /// The first fixup of the first chain (its file offset) and its segment's `dyld_chained_starts_in_segment`.
    func firstChainedFixup() -> (location: Int, segmentStarts: Int)? {
        guard let fixups = command(0x8000_0034) else { return nil }
        let data = field(fixups.offset + 8, 4)
        let starts = data + field(data + 4, 4)
        let segments = commands.filter { $0.command == 0x19 }
        for index in 0..<field(starts, 4) {
            let info = field(starts + 4 + 4 * index, 4)
            guard info != 0 else { continue }
            let segmentStarts = starts + info
            let pageSize = field(segmentStarts + 4, 2)
            for page in 0..<field(segmentStarts + 20, 2) {
                let start = field(segmentStarts + 22 + 2 * page, 2)
                guard start != 0xFFFF else { continue }
                return (field(segments[index].offset + 40, 8) + page * pageSize + start, segmentStarts)
            }
        }
        return nil
    }
}

extension HostileInputFixtures {
    static func readBE(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<4).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}

extension UInt32 {
    fileprivate var asUInt64: UInt64 { UInt64(self) }
}
