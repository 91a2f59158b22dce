import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real binary on input a pull request can contain: damaged ELF files and archives, files
/// that are not files, unreadable files, hostile names, huge and deeply nested sources, broken
/// configuration. Every run must end on its own (the harness kills it at a deadline and fails),
/// without a crash, with exit 2 and a one-line error naming each bad input, the good inputs still
/// reported, and peak memory under a bound (printed as `hostile-rss`, so runs can be compared).
@Suite struct HostileInputTests {
    /// Peak RSS bound for a run over small inputs: the debug binary itself takes ~25 MiB, the
    /// heaviest run here (512 bit-flipped binaries) ~60 MiB.
    static let smallInputRSSBound = 256 * 1024 * 1024

    /// A reader that stops early (`shipcheck … | head`) ends the output, not the run: no trap,
    /// the exit code the findings give. The report is larger than a pipe holds, so the writes
    /// after the reader has gone fail.
    @Test func aReaderThatStopsEarlyEndsTheOutputQuietly() {
        let directory = TemporaryDirectory("shipcheck-closed-pipe")
        for index in 0..<600 {
            directory.write("conflict\(index).txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        }
        for format in ["json", "text"] {
            let result = CommandRunner.run(
                "/bin/bash",
                [
                    "-c",
                    "'\(CommandRunner.shipcheckPath)' conflicts --format \(format) . | head -c 1 >/dev/null; echo ${PIPESTATUS[0]}"
                ], in: directory.path)
            #expect(result.stdout == "1\n", "\(format): shipcheck exited \(result.stdout)")
            #expect(!result.stderr.contains("Fatal error"), "\(format): \(result.stderr)")
        }
    }

    /// A report that cannot be written where standard output goes (a full disk behind
    /// `> report.json`) is an input error on one line, never a run that looks done.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskBehindStandardOutputIsAnInputError() {
        let directory = TemporaryDirectory("shipcheck-full-disk")
        directory.write("conflict.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        // A Mach-O binary to list: read by every build (shipcheck's own binary is ELF on Linux,
        // which a build with the ELF trait off, as on a Mac, does not read).
        let binary = Repository.machOFixture("App-macos")
        for arguments in ["conflicts --format json .", "conflicts .", "symbols '\(binary)'"] {
            let result = CommandRunner.run(
                "/bin/sh", ["-c", "'\(CommandRunner.shipcheckPath)' \(arguments) >/dev/full"], in: directory.path)
            #expect(result.status == 2, "\(arguments): exit \(result.status)")
            #expect(
                result.stderr.contains("shipcheck: standard output: error: cannot write: no space left on device"),
                "\(arguments): \(result.stderr)")
        }
    }

    // MARK: - Binaries

    @Test(.needsELF) func elfTruncatedAtEverySectionBoundary() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-cut")
        var damaged: [String] = []
        for sample in [HostileInputFixtures.sampleExecutable, HostileInputFixtures.sampleObject] {
            let bytes = HostileInputFixtures.bytes(sample)
            let boundaries = HostileInputFixtures.sectionBoundaries(of: bytes)
            #expect(boundaries.count > 5, "the sample has its sections")
            for cut in boundaries {
                damaged.append(
                    directory.write(
                        "\((sample as NSString).lastPathComponent).cut-\(cut)", bytes: Array(bytes.prefix(cut))))
            }
        }
        try expectBinaryRunsReportEach(damaged, label: "section-boundary truncations")
    }

    @Test(.needsELF) func elfTruncatedAtSeededRandomOffsets() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-random-cut")
        var generator = SeededGenerator(seed: 0x5348_4950)
        var damaged: [String] = []
        for sample in [HostileInputFixtures.sampleExecutable, HostileInputFixtures.sampleObject] {
            let bytes = HostileInputFixtures.bytes(sample)
            for _ in 0..<40 {
                let cut = Int.random(in: 1..<bytes.count, using: &generator)
                damaged.append(
                    directory.write(
                        "\((sample as NSString).lastPathComponent).at-\(cut)", bytes: Array(bytes.prefix(cut))))
            }
        }
        try expectBinaryRunsReportEach(Array(Set(damaged)).sorted(), label: "random truncations")
    }

    /// Hundreds of corrupt files in one run under a low open-file limit: each corrupt file is
    /// closed again (an ELF file that failed to open once leaked its descriptor and libelf handle,
    /// so the files after the first ~250 failed with "too many open files").
    @Test(.needsELF) func manyCorruptFilesDoNotExhaustFileDescriptors() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-fds")
        let bytes = HostileInputFixtures.bytes(HostileInputFixtures.sampleExecutable)
        for index in 0..<300 { directory.write("cut-\(index)", bytes: Array(bytes.prefix(4096 + index))) }
        directory.write("App", bytes: bytes)
        let run = HostileRunner.shipcheck(["binary", "."], in: directory.path, openFileLimit: 64)
        expectSurvived(run, "binary on 300 corrupt files with 64 descriptors")
        #expect(run.exitStatus == 2)
        #expect(run.errorLines.count == 300)
        #expect(run.errorLines.allSatisfy { $0.contains("error: corrupt ELF file") }, "\(run.stderr.prefix(2000))")
        #expect(run.stdout.contains("AppLib.PublicCard_Previews"))
    }

    /// Dispatch's workers have 512 KiB stacks on Darwin; with `ulimit -s 512` every thread here
    /// gets that. swift-syntax's recursive descent overflowed such a stack on a preview a few
    /// dozen closures deep, on whichever read-pass worker took the file: the workers are
    /// threads of their own, with a main thread's 8 MiB. The file beside it is still checked.
    @Test func deeplyNestedPreviewOnSmallThreadStacksIsNoCrash() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-stack")
        var body = "Text(\"deep\")"
        for _ in 0..<30 { body = "VStack { \(body) }" }
        directory.write("Sources/Deep.swift", "import SwiftUI\n\n#Preview {\n    \(body)\n}\n")
        directory.write("Sources/Shallow.swift", "import SwiftUI\n\n#Preview {\n    Text(\"shallow\")\n}\n")
        let run = HostileRunner.shipcheck(["sources", "Sources"], in: directory.path, stackLimitKiB: 512)
        expectSurvived(run, "sources on a preview 30 closures deep with 512 KiB stacks")
        #expect(run.stdout.contains("Shallow.swift:3"), "\(run.stdout.prefix(1000))")
        // Parsed (a release build: its finding) or past the parser's nesting limit (a debug
        // build's is lower): never a crash.
        #expect(
            run.stdout.contains("Deep.swift:3") || run.stderr.contains("Deep.swift:4: error: does not parse as Swift"),
            "\(run.stdout.prefix(1000))\n\(run.stderr.prefix(1000))")
    }

    /// Each damaged file is named in its own error line, the intact sample beside them is still
    /// audited (its findings are printed) and listed, and no run crashes or hangs.
    func expectBinaryRunsReportEach(
        _ damaged: [String], label: String, intact: String = HostileInputFixtures.sampleExecutable,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let audit = HostileRunner.shipcheck(["binary"] + damaged + [intact])
        expectSurvived(audit, label, sourceLocation: sourceLocation)
        #expect(audit.exitStatus == 2, sourceLocation: sourceLocation)
        #expect(
            audit.stdout.contains("AppLib.PublicCard_Previews"), "the intact binary is still audited",
            sourceLocation: sourceLocation)
        expectErrorLines(audit, naming: damaged, sourceLocation: sourceLocation)

        let listing = HostileRunner.shipcheck(["symbols"] + damaged + [intact])
        expectSurvived(listing, "symbols on \(label)", sourceLocation: sourceLocation)
        #expect(listing.exitStatus == 2, sourceLocation: sourceLocation)
        #expect(listing.stdout.contains("PublicCard_Previews"), sourceLocation: sourceLocation)
        expectErrorLines(listing, naming: damaged, sourceLocation: sourceLocation)
    }

    /// Every bit of the ELF header and of the first section headers, flipped one at a time. A
    /// flip can leave a valid file (a padding bit), so only "no crash, no hang, every error line
    /// names an input, the intact file still audited" holds for all of them.
    @Test(.needsELF) func bitFlippedHeaders() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-flip")
        let bytes = HostileInputFixtures.bytes(HostileInputFixtures.sampleObject)
        let tableOffset = Int(HostileInputFixtures.readLE(bytes, at: 0x28, size: 8))
        // The ELF header, then section headers 1–3 (0 is the null section).
        try expectBitFlipsReportedByName(
            of: bytes, in: [0..<64, (tableOffset + 64)..<(tableOffset + 4 * 64)], directory: directory,
            intact: HostileInputFixtures.sampleExecutable)
    }

    /// Writes `bytes` with each bit of `ranges` flipped (one file per bit), runs `binary` and
    /// `symbols` on them all beside `intact`: no crash or hang, every error line names an input,
    /// the intact file still reported, and more than 100 flips reported.
    func expectBitFlipsReportedByName(
        of bytes: [UInt8], in ranges: [Range<Int>], directory: TemporaryDirectory, intact: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var flipped: [String] = []
        for range in ranges {
            for byte in range {
                for bit in 0..<8 {
                    var copy = bytes
                    copy[byte] ^= 1 << bit
                    flipped.append(directory.write("flip-\(byte)-\(bit).o", bytes: copy))
                }
            }
        }
        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck([command] + flipped + [intact], timeout: 120)
            expectSurvived(run, "\(command) on \(flipped.count) bit flips", sourceLocation: sourceLocation)
            #expect(run.exitStatus == 2, "some flips must be reported", sourceLocation: sourceLocation)
            #expect(run.stdout.contains("PublicCard_Previews"), sourceLocation: sourceLocation)
            for line in run.errorLines {
                #expect(
                    line.contains(directory.path + "/flip-"), "an error line that names no input: \(line)",
                    sourceLocation: sourceLocation)
            }
            #expect(
                run.errorLines.count > 100, "flips of the magic, sizes and offsets are errors",
                sourceLocation: sourceLocation)
        }
    }

    @Test(.needsELF) func archiveWithACorruptMemberStillAuditsTheOthers() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-archive")
        var members = HostileInputFixtures.archiveMembers(
            HostileInputFixtures.bytes(HostileInputFixtures.sampleArchive))
        let names = members.map { HostileInputFixtures.memberName($0.header) }
        let victim = try #require(names.firstIndex(of: "ContentView.o"))
        #expect(names.contains("Fixtures.o"))
        // Keep the ELF header, replace the rest: the section-header table now lies past the member's end.
        members[victim].body = Array(members[victim].body.prefix(64)) + [UInt8](repeating: 0xFF, count: 64)
        let archive = directory.write("libDamaged.a", bytes: HostileInputFixtures.archive(members))

        let audit = HostileRunner.shipcheck(["binary", archive])
        expectSurvived(audit, "binary on an archive with a corrupt member")
        #expect(audit.exitStatus == 2)
        #expect(audit.errorLines.count == 1)
        #expect(
            audit.errorLines.first?.contains("libDamaged.a(ContentView.o): error: corrupt ELF file") == true,
            "\(audit.stderr)")
        #expect(
            audit.stdout.contains("libDamaged.a(Fixtures.o)"), "the intact member is still audited: \(audit.stdout)")

        let listing = HostileRunner.shipcheck(["symbols", archive])
        expectSurvived(listing, "symbols on an archive with a corrupt member")
        #expect(listing.exitStatus == 2)
        #expect(listing.errorLines.count == 1 && listing.stderr.contains("(ContentView.o)"))
        #expect(listing.stdout.contains("Fixtures.o"))
    }

    @Test(.needsELF) func emptyFileAndDirectoryNamedLikeABinary() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-notbinary")
        let empty = directory.write("libEmpty.so", bytes: [])
        let folder = directory.path + "/libFolder.a"
        try FileManager.default.createDirectory(atPath: folder + "/Headers", withIntermediateDirectories: true)
        directory.write("libFolder.a/Headers/Folder.h", "int folder(void);\n")
        let audit = HostileRunner.shipcheck(["binary", empty, folder, HostileInputFixtures.sampleExecutable])
        expectSurvived(audit, "binary on an empty file and a folder")
        #expect(audit.exitStatus == 2)
        expectErrorLines(audit, naming: [empty, folder])
        #expect(audit.stderr.contains("libEmpty.so: error: empty file"))
        #expect(audit.stderr.contains("libFolder.a: error: directory holds no ELF files"))
        #expect(audit.stdout.contains("AppLib.PublicCard_Previews"))

        let listing = HostileRunner.shipcheck(["symbols", empty, folder, HostileInputFixtures.sampleExecutable])
        expectSurvived(listing, "symbols on an empty file and a folder")
        #expect(listing.exitStatus == 2)
        expectErrorLines(listing, naming: [empty, folder])
    }

    /// A 1 GiB file with a valid ELF or Mach-O header (a sample, then a sparse hole): the file is
    /// mapped, so memory stays at the size of what is read, not of the file. Measured ~30 MiB peak.
    @Test(
        arguments: (TestPlatform.readsELF ? [HostileInputFixtures.sampleExecutable] : []) + [
            Repository.machOFixture("App-macos")
        ])
    func oneGigabyteSparseBinaryIsMappedNotRead(_ sample: String) throws {
        let directory = TemporaryDirectory("shipcheck-hostile-sparse")
        let path = directory.write("Huge", bytes: HostileInputFixtures.bytes(sample))
        #expect(SystemCalls.truncateFile(path, to: 1 << 30) == 0)
        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck([command, path])
            expectSurvived(run, "\(command) on a 1 GiB sparse copy of \(sample)", rssBound: 128 * 1024 * 1024)
            #expect(run.exitStatus == (command == "binary" ? 1 : 0), "\(run.stderr)")
            #expect(run.stdout.contains("PublicCard_Previews"))
        }
    }

    // MARK: - Sources

    @Test func invalidUTF8AndNULBytesInSwiftSources() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-utf8")
        directory.write("Sources/Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write(
            "Sources/Latin1.swift",
            bytes: Array("import SwiftUI\n// caf".utf8) + [0xE9] + Array("\n#Preview { Text(\"x\") }\n".utf8))
        directory.write(
            "Sources/Truncated.swift",
            bytes: Array("import SwiftUI\n#Preview { Text(\"".utf8) + [0xF0, 0x9F] + Array("\") }\n".utf8))
        directory.write(
            "Sources/Nul.swift",
            bytes: Array("import SwiftUI\n#Preview { Text(\"a".utf8) + [0, 0, 0] + Array("\") }\n".utf8))
        directory.write("Sources/Merge.txt", bytes: Array("<<<<<<< HEAD\n\u{0}\u{FF}\n=======\nb\n>>>>>>> x\n".utf8))

        let sources = HostileRunner.shipcheck(["sources", "."], in: directory.path)
        expectSurvived(sources, "sources on invalid UTF-8 and NUL bytes")
        #expect(sources.exitStatus == 2)
        #expect(sources.stderr.contains("Sources/Latin1.swift:2: error: not valid UTF-8"))
        #expect(sources.stderr.contains("Sources/Truncated.swift:2: error: not valid UTF-8"))
        #expect(sources.stdout.contains("Sources/Good.swift:2:1: error: #Preview is compiled in release builds"))
        // NUL is valid UTF-8: the file is scanned (a finding) or refused by name, never dropped.
        #expect(sources.stdout.contains("Sources/Nul.swift:") || sources.stderr.contains("Sources/Nul.swift"))

        let conflicts = HostileRunner.shipcheck(["conflicts", "."], in: directory.path)
        expectSurvived(conflicts, "conflicts on invalid UTF-8 and NUL bytes")
        #expect(conflicts.exitStatus != nil)
        for line in conflicts.errorLines { #expect(line.contains("Sources/"), "\(line)") }
    }

    /// A 200 MB file that is one line: the conflict scanner and a saved query search it whole, the
    /// source scanner's byte prefilter passes over it, `binary` refuses it by its first bytes.
    /// (Parsing 200 MB of Swift takes minutes in a debug build; the release build's figure is in
    /// bench/results/fuzz.md.)
    @Test func twoHundredMegabyteSingleLineFile() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-huge")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        let huge = directory.path + "/Generated.swift"
        let size = 200 * 1024 * 1024
        let line =
            Array("let generated = \"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: size)
            + Array("\" // needle".utf8)
        #expect(FileManager.default.createFile(atPath: huge, contents: Data(line)))
        defer { SystemCalls.removeFile(huge) }
        let bound = 3 * size  // measured: conflicts ~230 MiB (the file, read whole), sources and query ~same

        let conflicts = HostileRunner.shipcheck(["conflicts", "."], in: directory.path, timeout: 120)
        expectSurvived(conflicts, "conflicts on a 200 MB line", rssBound: bound)
        #expect(conflicts.exitStatus == 0, "\(conflicts.stderr)")

        let sources = HostileRunner.shipcheck(["sources", "."], in: directory.path, timeout: 120)
        expectSurvived(sources, "sources on a 200 MB line", rssBound: bound)
        #expect(sources.exitStatus == 1)
        #expect(sources.stdout.contains("Good.swift:2:1"))

        #expect(HostileRunner.shipcheck(["query", "add", "needle", "needle"], in: directory.path).exitStatus == 0)
        let search = HostileRunner.shipcheck(["query", "run", "needle"], in: directory.path, timeout: 120)
        expectSurvived(search, "query run on a 200 MB line", rssBound: bound)
        #expect(search.stdout.contains("Generated.swift"), "\(search.stdout)\(search.stderr)")

        let binary = HostileRunner.shipcheck(["binary", huge])
        expectSurvived(binary, "binary on a 200 MB text file")
        #expect(binary.exitStatus == 2)
        expectErrorLines(binary, naming: [huge])
    }

    @Test func tenThousandNestedIfIsRefusedByNameNotACrash() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-nesting")
        let depth = 10_000
        let deep =
            "import SwiftUI\n" + String(repeating: "#if A\n", count: depth) + "#Preview { Text(\"deep\") }\n"
            + String(repeating: "#endif\n", count: depth)
        directory.write("Deep.swift", deep)
        // Nested as deep as real code ever is: still scanned (inside #if DEBUG, so no finding).
        // (A debug build's swift-syntax stops at 20 levels of nesting, a release build at 256.)
        let levels = 12
        let nested =
            "import SwiftUI\n" + String(repeating: "#if A\n", count: levels - 1)
            + "#if DEBUG\n#Preview { Text(\"ok\") }\n" + String(repeating: "#endif\n", count: levels)
        directory.write("Nested.swift", nested)
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")

        let run = HostileRunner.shipcheck(["sources", "."], in: directory.path)
        expectSurvived(run, "sources on 10,000 nested #if")
        #expect(run.exitStatus == 2)
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains("Deep.swift:66: error: #if nesting deeper than 64 levels; not scanned"), "\(run.stderr)"
        )
        #expect(run.stdout.contains("Good.swift:2:1"))
        #expect(!run.stdout.contains("Nested.swift"))

        let fix = HostileRunner.shipcheck(["sources", "--fix", "--dry-run", "."], in: directory.path)
        expectSurvived(fix, "sources --fix on 10,000 nested #if")
        #expect(fix.stderr.contains("Deep.swift:66:"))

        // The audit parses sources (archive breakers) and Package.swift on its own: same guard.
        directory.write(
            "Package.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\n" + String(repeating: "#if A\n", count: depth)
                + String(repeating: "#endif\n", count: depth))
        let audit = HostileRunner.shipcheck(["audit", "."], in: directory.path)
        expectSurvived(audit, "audit on 10,000 nested #if")
        #expect(audit.exitStatus == 2)
        #expect(audit.stderr.contains("Deep.swift:66: error: #if nesting deeper than 64 levels"), "\(audit.stderr)")
        #expect(audit.stderr.contains("Package.swift:67: error: #if nesting deeper than 64 levels"), "\(audit.stderr)")
        #expect(audit.stdout.contains("Good.swift:2:1"))
    }

    /// swift-syntax's type lookahead doubles its work with each nested `[` (the fuzzer's input:
    /// `import Pac[[[…` 76 deep); 22 levels took 45 s in a debug build. Past 16 levels the file is
    /// refused by name; brackets in strings and comments do not count.
    @Test func deeplyNestedBracketsAreRefusedNotAHang() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-brackets")
        directory.write(
            "Deep.swift",
            "import SwiftUI\n// Preview\nlet x = " + String(repeating: "[", count: 40) + "1"
                + String(repeating: "]", count: 40) + "\n")
        directory.write(
            "Quoted.swift",
            "import SwiftUI\nlet s = \"" + String(repeating: "[", count: 40) + "\" // "
                + String(repeating: "[", count: 40)
                + "\n/* [[[[[[[[[[[[[[[[[[[[[[[[ */\nlet t = [[[1]], [[2]]]\n#Preview { Text(\"quoted\") }\n")
        directory.write(
            "Package.swift",
            "// swift-tools-version: 6.0\nimport Pac" + String(repeating: "[", count: 76) + "kageDescription\n")
        for command in ["sources", "audit"] {
            let run = HostileRunner.shipcheck([command, "."], in: directory.path)
            expectSurvived(run, "\(command) on 40 nested [")
            #expect(run.exitStatus == 2)
            #expect(
                run.stderr.contains("Deep.swift:3: error: [ nesting deeper than 16 levels; not scanned"),
                "\(run.stderr)")
            #expect(run.stdout.contains("Quoted.swift:5:1"), "\(run.stdout)")
            if command == "audit" {
                #expect(run.stderr.contains("Package.swift:2: error: [ nesting deeper than 16 levels"))
            }
        }
    }

    // MARK: - Files that are not files

    @Test(.needsELF) func symlinkLoops() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-loops")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write("conflict.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        #expect(SystemCalls.makeSymlink("Loop2.swift", at: directory.path + "/Loop1.swift") == 0)
        #expect(SystemCalls.makeSymlink("Loop1.swift", at: directory.path + "/Loop2.swift") == 0)
        #expect(SystemCalls.makeSymlink("Self.o", at: directory.path + "/Self.o") == 0)
        #expect(SystemCalls.makeSymlink(".", at: directory.path + "/Cycle") == 0)  // a directory cycle: never followed

        let sources = HostileRunner.shipcheck(["sources", "."], in: directory.path)
        expectSurvived(sources, "sources on symlink loops")
        #expect(sources.exitStatus == 2)
        expectErrorLines(sources, naming: ["Loop1.swift", "Loop2.swift"])
        #expect(sources.stdout.contains("Good.swift:2:1"))

        let conflicts = HostileRunner.shipcheck(["conflicts", "."], in: directory.path)
        expectSurvived(conflicts, "conflicts on symlink loops")
        #expect(conflicts.exitStatus == 2)
        #expect(conflicts.stdout.contains("conflict.txt:1:1"))

        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck(
                [command, "Self.o", "Loop1.swift", HostileInputFixtures.sampleExecutable], in: directory.path)
            expectSurvived(run, "\(command) on symlink loops")
            #expect(run.exitStatus == 2)
            expectErrorLines(run, naming: ["Self.o", "Loop1.swift"])
            #expect(run.stdout.contains("PublicCard_Previews"))
        }
    }

    /// Unreadable for whoever runs shipcheck. As root (CI containers) a mode-000 file is still
    /// readable, so the runs then drop to the `nobody` user with `setpriv`: the same permission
    /// check a developer's account meets. The fixture is made world-readable except the files
    /// meant to be unreadable.
    @Test(.needsELF) func unreadableFilesAndFolders() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-unreadable")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write("conflict.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        directory.write("Secret.swift", "import SwiftUI\n#Preview { Text(\"secret\") }\n")
        directory.write("Locked/Inner.swift", "import SwiftUI\n#Preview { Text(\"inner\") }\n")
        let binary = directory.write("Secret.o", bytes: HostileInputFixtures.bytes(HostileInputFixtures.sampleObject))
        let sample = directory.write("App", bytes: HostileInputFixtures.bytes(HostileInputFixtures.sampleExecutable))
        #expect(SystemCalls.setMode(directory.path, 0o755) == 0)
        for file in ["Good.swift", "conflict.txt", "App"] {
            #expect(SystemCalls.setMode(directory.path + "/" + file, 0o644) == 0)
        }
        for file in ["Secret.swift", "Secret.o", "Locked"] {
            #expect(SystemCalls.setMode(directory.path + "/" + file, 0o000) == 0)
        }
        let user: uid_t? = getuid() == 0 ? 65534 : nil
        if user != nil {
            #expect(
                FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                "running as root: setpriv (util-linux) is needed to drop to nobody")
        }

        let sources = HostileRunner.shipcheck(["sources", "."], in: directory.path, asUser: user)
        expectSurvived(sources, "sources on unreadable files")
        #expect(sources.exitStatus == 2, "\(sources.stderr)")
        #expect(sources.stderr.contains("Secret.swift: error: permission denied"), "\(sources.stderr)")
        #expect(sources.stderr.contains("Locked"), "\(sources.stderr)")
        #expect(sources.stdout.contains("Good.swift:2:1"))

        let conflicts = HostileRunner.shipcheck(["conflicts", "."], in: directory.path, asUser: user)
        expectSurvived(conflicts, "conflicts on unreadable files")
        #expect(conflicts.exitStatus == 2, "\(conflicts.stderr)")
        #expect(conflicts.stderr.contains("Secret.swift"))
        #expect(conflicts.stdout.contains("conflict.txt:1:1"))

        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck([command, binary, sample], in: directory.path, asUser: user)
            expectSurvived(run, "\(command) on an unreadable binary")
            #expect(run.exitStatus == 2)
            #expect(run.stderr.contains("Secret.o: error: permission denied"), "\(run.stderr)")
            #expect(run.stdout.contains("PublicCard_Previews"))
        }
    }

    @Test(.needsELF) func fifosAndDeviceFiles() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-fifo")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write("conflict.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        #expect(SystemCalls.makeFIFO(directory.path + "/Pipe.swift", 0o644) == 0)
        #expect(SystemCalls.makeFIFO(directory.path + "/pipe.o", 0o644) == 0)
        // A character device inside the tree where the kernel allows mknod (root, no user namespace).
        // makedev is a C macro: the device number of /dev/null (1, 3) spelled out.
        #if canImport(Darwin)
        let null = dev_t(1 << 24 | 3)
        #else
        let null = dev_t(1 << 8 | 3)
        #endif
        let madeDevice = SystemCalls.makeNode(directory.path + "/Null.swift", S_IFCHR | 0o644, null) == 0

        let sources = HostileRunner.shipcheck(["sources", ".", "/dev/null"], in: directory.path)
        expectSurvived(sources, "sources on FIFOs and devices")
        #expect(sources.exitStatus == 2)
        expectErrorLines(sources, naming: ["Pipe.swift", "/dev/null"] + (madeDevice ? ["Null.swift"] : []))
        #expect(sources.stdout.contains("Good.swift:2:1"))

        let conflicts = HostileRunner.shipcheck(["conflicts", ".", "Pipe.swift"], in: directory.path)
        expectSurvived(conflicts, "conflicts on FIFOs and devices")
        #expect(conflicts.exitStatus == 2)
        #expect(
            conflicts.errorLines.filter { $0.contains("Pipe.swift") }.count == 1, "reported once: \(conflicts.stderr)")
        #expect(conflicts.stdout.contains("conflict.txt:1:1"))
        // /dev/null named from inside /dev: a device operand of the conflict scanner.
        let device = HostileRunner.shipcheck(["conflicts", "null"], in: "/dev")
        expectSurvived(device, "conflicts on /dev/null")
        #expect(device.exitStatus == 2)
        expectErrorLines(device, naming: ["null"])

        for command in ["binary", "symbols"] {
            let run = HostileRunner.shipcheck(
                [command, "pipe.o", "/dev/null", "/dev/zero", HostileInputFixtures.sampleExecutable], in: directory.path
            )
            expectSurvived(run, "\(command) on FIFOs and devices")
            #expect(run.exitStatus == 2)
            expectErrorLines(run, naming: ["pipe.o", "/dev/null", "/dev/zero"])
            #expect(run.stdout.contains("PublicCard_Previews"))
        }

        // A configuration or a query store that is a FIFO must not block the run.
        let config = HostileRunner.shipcheck(["sources", "--config", "Pipe.swift", "."], in: directory.path)
        expectSurvived(config, "a FIFO as --config")
        #expect(config.exitStatus == 2)
        #expect(config.stderr.contains("Pipe.swift: error: not a regular file"), "\(config.stderr)")
        try FileManager.default.createDirectory(
            atPath: directory.path + "/.shipcheck", withIntermediateDirectories: true)
        #expect(SystemCalls.makeFIFO(directory.path + "/.shipcheck/queries.yml", 0o644) == 0)
        let store = HostileRunner.shipcheck(["query", "list"], in: directory.path)
        expectSurvived(store, "a FIFO as the query store")
        #expect(store.exitStatus == 2)
        #expect(store.stderr.contains("queries.yml"), "\(store.stderr)")
    }

    @Test(.needsNonUTF8Names) func fileNamesWithNewlinesAndInvalidUTF8() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-names")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write("new\nline.swift", "import SwiftUI\n#Preview { Text(\"newline\") }\n")
        directory.write("new\nline.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        // A name that is not UTF-8 (Latin-1 é), written with the raw bytes.
        let rawName = Array((directory.path + "/caf").utf8) + [0xE9] + Array(".swift".utf8)
        let descriptor = SystemCalls.openFile(bytes: rawName, flags: O_WRONLY | O_CREAT, mode: 0o644)
        #expect(descriptor >= 0)
        FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).write(
            Data("import SwiftUI\n#Preview { Text(\"latin\") }\n".utf8))

        let sources = HostileRunner.shipcheck(["sources", "."], in: directory.path)
        expectSurvived(sources, "sources on hostile names")
        #expect(sources.exitStatus == 2)
        // The newline is escaped: the finding is still one line, naming the file.
        #expect(sources.stdout.contains("new\\nline.swift:2:1: error:"), "\(sources.stdout)")
        #expect(sources.stdout.contains("Good.swift:2:1"))
        #expect(sources.errorLines.count == 1)
        #expect(sources.errorLines.first?.contains("error: file name is not valid UTF-8") == true, "\(sources.stderr)")

        let conflicts = HostileRunner.shipcheck(["conflicts", "."], in: directory.path)
        expectSurvived(conflicts, "conflicts on hostile names")
        #expect(conflicts.stdout.contains("new\\nline.txt:1:1"), "\(conflicts.stdout)")
        for format in ["json", "sarif", "junit", "github", "gitlab"] {
            let run = HostileRunner.shipcheck(["sources", "--format", format, "."], in: directory.path)
            expectSurvived(run, "sources --format \(format) on hostile names")
            #expect(run.exitStatus == 2)
            #expect(!run.stdout.contains("new\nline"), "\(format) output carries a raw newline in a name")
        }
    }

    // MARK: - Configuration and query stores

    @Test(arguments: [
        ("rules: [preview-outside-debug]\n", 1, "'rules' must be a mapping"),
        ("include: [\n", 2, "invalid YAML"),
        ("max-file-size: big\n", 1, "'max-file-size' must be a whole number"),
        ("max-file-size: -5\n", 1, "'max-file-size' must be positive"),
        ("flags:\n  debug-only: {a: 1}\n", 2, "'flags.debug-only' must be a list of strings"),
        ("- include\n", 1, "expected a mapping"),
        ("\"unterminated\n", 2, "invalid YAML"),
        ("include: &a [*a]\n", 1, "invalid YAML"),
        ("rules:\n  preview-outside-debug: 5\n", 2, "must be error, warning, note or off"),
        ("colour: red\n", 1, "unknown key 'colour'"),
        // Each capability's own settings, read by its own type.
        ("binaries:\n  app: build/App\n", 2, "'binaries' must be a list of strings"),
        ("queries: [a, b]\n", 1, "'queries' must be a string"),
        ("conflicts:\n  alow: [Docs/**]\n", 2, "unknown key 'conflicts.alow'"),
        ("bundle:\n  distribution: store\n", 2, "'bundle.distribution' must be one of app-store")
    ])
    func brokenConfiguration(text: String, line: Int, message: String) throws {
        let directory = TemporaryDirectory("shipcheck-hostile-config")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write(".shipcheck.yml", text)
        for command in [
            ["sources", "."], ["conflicts", "."], ["binary", HostileInputFixtures.sampleExecutable], ["query", "list"],
            ["audit", "."]
        ] {
            let run = HostileRunner.shipcheck(command, in: directory.path)
            expectSurvived(run, "\(command[0]) with a broken configuration")
            #expect(run.exitStatus == 2, "\(command): \(run.stderr)")
            #expect(run.errorLines.count == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains(".shipcheck.yml:\(line): error: "), "\(command): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(command): \(run.stderr)")
        }
    }

    @Test func configurationThatIsNotAFile() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-config-kind")
        directory.write("Good.swift", "import SwiftUI\n#Preview { Text(\"good\") }\n")
        directory.write("Latin1.yml", bytes: Array("include: ['caf".utf8) + [0xE9] + Array("']\n".utf8))
        try FileManager.default.createDirectory(
            atPath: directory.path + "/Folder.yml", withIntermediateDirectories: true)
        #expect(SystemCalls.makeSymlink("Loop.yml", at: directory.path + "/Loop.yml") == 0)
        for (config, message) in [
            ("Latin1.yml", "not valid UTF-8"), ("Folder.yml", "Folder.yml"), ("Loop.yml", "Loop.yml"),
            ("/dev/zero", "/dev/zero")
        ] {
            let run = HostileRunner.shipcheck(["sources", "--config", config, "."], in: directory.path)
            expectSurvived(run, "--config \(config)")
            #expect(run.exitStatus == 2, "\(config): \(run.stderr)")
            #expect(run.errorLines.count == 1 && run.stderr.contains(message), "\(config): \(run.stderr)")
        }
    }

    @Test(arguments: [
        ("queries: {name: x}\n", "queries.yml:1:"),
        ("queries:\n  - name: x\n    pattern: [a, b]\n", "queries.yml:3:"),
        ("queries:\n  - name: x\n    pattern: y\n    case-sensitive: maybe\n", "queries.yml:4:"),
        ("queries:\n  - name: [\n", "queries.yml:"),
        ("queries:\n  - name: x\n    pattern: '(unclosed'\n    kind: regex\n", "queries.yml:"),
        ("- just a list\n", "queries.yml:1:")
    ])
    func brokenQueryStore(text: String, location: String) throws {
        let directory = TemporaryDirectory("shipcheck-hostile-store")
        directory.write(".shipcheck/queries.yml", text)
        let environment = ["XDG_CONFIG_HOME": directory.path + "/home"]  // no personal store
        for command in [["query", "list"], ["query", "run", "--all"], ["query", "add", "new", "needle"]] {
            let run = HostileRunner.shipcheck(command, in: directory.path, environment: environment)
            expectSurvived(run, "\(command.joined(separator: " ")) on a broken store")
            #expect(run.exitStatus == 2, "\(command): \(run.stderr)")
            #expect(run.errorLines.count == 1 && run.stderr.contains(location), "\(command): \(run.stderr)")
        }
        #expect(directory.read(".shipcheck/queries.yml") == text, "a broken store is never rewritten")
    }

    // MARK: - Resource limits

    /// `max-file-size` reaches every reader of text: Swift sources, Xcode project files and
    /// xcconfigs (source scanner, build-settings audit), any tracked file (conflict scanner),
    /// saved-query searches.
    @Test func maxFileSizeIsHonouredByEveryTextScanner() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-cap")
        let padding = "// " + String(repeating: "x", count: 2_000) + "\n"
        directory.write(".shipcheck.yml", "max-file-size: 1000\n")
        directory.write("Big.swift", "import SwiftUI\n#Preview { Text(\"big\") }\n" + padding)
        directory.write("Small.swift", "import SwiftUI\n#Preview { Text(\"small\") }\n")
        directory.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n" + padding + "}\n")
        directory.write("Release.xcconfig", "DEVELOPMENT_ASSET_PATHS = Preview\n" + padding)
        directory.write("big.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n" + padding)
        directory.write("small.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
        let over = "bytes, over the 1000-byte scanning limit (max-file-size)"

        let sources = HostileRunner.shipcheck(["sources", "."], in: directory.path)
        expectSurvived(sources, "sources with max-file-size")
        #expect(sources.exitStatus == 2)
        for name in ["Big.swift", "App.xcodeproj/project.pbxproj", "Release.xcconfig"] {
            #expect(
                sources.errorLines.contains { $0.contains(name) && $0.contains(over) }, "\(name): \(sources.stderr)")
        }
        #expect(sources.stdout.contains("Small.swift:2:1"))

        let conflicts = HostileRunner.shipcheck(["conflicts", "."], in: directory.path)
        expectSurvived(conflicts, "conflicts with max-file-size")
        #expect(conflicts.exitStatus == 2)
        #expect(conflicts.errorLines.contains { $0.contains("big.txt") && $0.contains(over) }, "\(conflicts.stderr)")
        #expect(conflicts.stdout.contains("small.txt:1:1"))

        let audit = HostileRunner.shipcheck(["audit", "."], in: directory.path)
        expectSurvived(audit, "audit with max-file-size")
        #expect(audit.exitStatus == 2)
        for name in ["Big.swift", "App.xcodeproj/project.pbxproj", "Release.xcconfig", "big.txt"] {
            #expect(audit.errorLines.contains { $0.contains(name) && $0.contains(over) }, "\(name): \(audit.stderr)")
        }

        #expect(HostileRunner.shipcheck(["query", "add", "marker", "<<<<<<<"], in: directory.path).exitStatus == 0)
        let query = HostileRunner.shipcheck(["query", "run", "marker"], in: directory.path)
        expectSurvived(query, "query run with max-file-size")
        #expect(query.exitStatus == 2)
        #expect(query.errorLines.contains { $0.contains("big.txt") && $0.contains(over) }, "\(query.stderr)")
        #expect(query.stdout.contains("small.txt"))
    }

    /// A catastrophically backtracking pattern on a long line: the run's `--timeout` stops the
    /// match, names the file, and the command ends soon after the bound.
    @Test func catastrophicRegexIsCutShortByTheTimeout() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-regex")
        directory.write("evil.txt", String(repeating: "a", count: 40) + "!\n")
        directory.write("fine.txt", "nothing to see\n")
        #expect(
            HostileRunner.shipcheck(["query", "add", "--regex", "evil", "(a+)+$"], in: directory.path).exitStatus == 0)
        let run = HostileRunner.shipcheck(["query", "run", "evil", "--timeout", "2"], in: directory.path, timeout: 60)
        expectSurvived(run, "a catastrophic regex")
        #expect(run.exitStatus == 2)
        #expect(run.errorLines.contains { $0.contains("evil.txt") && $0.contains("cut short") }, "\(run.stderr)")
    }

    // MARK: - Assertions

    func expectSurvived(
        _ run: HostileRun, _ label: String, rssBound: Int = smallInputRSSBound,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        print("hostile-rss \(label): \(run.peakRSSMiB) MiB")
        #expect(!run.timedOut, "\(label): still running at the deadline (hang)", sourceLocation: sourceLocation)
        #expect(
            run.signal == nil, "\(label): killed by signal \(run.signal ?? 0)\n\(run.stderr.suffix(2000))",
            sourceLocation: sourceLocation)
        #expect(
            run.peakRSSBytes < rssBound, "\(label): peak RSS \(run.peakRSSMiB) MiB over \(rssBound >> 20) MiB",
            sourceLocation: sourceLocation)
        #expect(
            !run.stderr.contains("Fatal error") && !run.stderr.contains("Backtracing"),
            "\(label): \(run.stderr.prefix(2000))", sourceLocation: sourceLocation)
    }

    /// Each input has an error line of its own naming it.
    func expectErrorLines(_ run: HostileRun, naming inputs: [String], sourceLocation: SourceLocation = #_sourceLocation)
    {
        let lines = run.errorLines
        for input in inputs {
            #expect(
                lines.contains {
                    $0.contains(input + ": error:") || $0.contains(input + ":") && $0.contains(": error:")
                },
                "no error line names \(input)\n\(run.stderr.prefix(3000))", sourceLocation: sourceLocation)
        }
    }
}
