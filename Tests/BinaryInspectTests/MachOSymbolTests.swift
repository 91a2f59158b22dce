import BinaryInspect
import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Testing

/// `shipcheck symbols` on every Mach-O fixture against the toolchain's llvm-nm, run on the same
/// files: the same entries (value, letter, name), the same count.
@Suite struct MachOSymbolTests {
    static let fixtures =
        [
            "App-macos", "App-macos-strip-x", "App-macos-stripped",
            "App-ios", "App-ios-offset", "App-ios-arm64e", "App-ios-strip-x", "App-ios-stripped",
            "libAppLib.dylib", "libAppLib-stripped.dylib", "libClean.dylib", "AppTests.bundle",
            "AppLib.o", "AppLib-arm64e.o", "WatchApp-arm64_32-chained", "WatchApp-arm64_32-stripped"
        ] + (ELFSupport.isBuilt ? ["libAppTestSupport.a"] : [])  // it has an ELF member

    /// `VALUE LETTER NAME` lines (value blank for undefined symbols), sorted: llvm-nm's default
    /// format, with the export-trie symbols a stripped image keeps (`--add-dyldinfo`), values
    /// 16 digits wide (llvm-nm prints 8 for 32-bit images). llvm-nm also makes up
    /// `<redacted function N>` entries from LC_FUNCTION_STARTS for code no symbol names; those
    /// are not symbols, and shipcheck does not list them.
    private func llvmNM(_ arguments: [String]) -> [String] {
        let result = CommandRunner.run(Toolchain.llvmNM, ["--add-dyldinfo"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n")
            .filter { !$0.hasSuffix(":") && !$0.isEmpty && !$0.contains("<redacted function ") }
            .map { line in
                // `VALUE L NAME`, or `L NAME` after the blank value of an undefined symbol.
                let fields = line.split(separator: " ", maxSplits: line.first == " " ? 1 : 2)
                let value = fields.count == 3 ? String(fields[0]).leftPadded(16) : String(repeating: " ", count: 16)
                return "\(value) \(fields.suffix(2).joined(separator: " "))"
            }
            .sorted()
    }

    private func shipcheck(_ path: String, options: SymbolListOptions = SymbolListOptions()) throws -> [String] {
        var options = options
        options.demangle = .none
        return try ListedSymbol.of(path, options: options).map { row in
            let value =
                row.section == "UND" ? String(repeating: " ", count: 16) : String(row.value, radix: 16).leftPadded(16)
            return "\(value) \(row.letter) \(row.mangled)"
        }.sorted()
    }

    /// Universal files and their slices: built here, and real ones Apple's linker made.
    static let universalSlices: [(file: String, architectures: Set<String>)] = [
        ("macho/App-universal", ["arm64", "x86_64"]),
        ("macho/WatchApp-universal", ["arm64_32", "arm64"]),
        ("macho/AppLib-32bit.o", ["armv7k", "armv7", "armv7s", "i386"]),
        ("real-apple/markupsafe-1.1.1-macosx_10_6_intel.so", ["i386", "x86_64"])
    ]

    private func difference(_ ours: [String], _ theirs: [String]) -> String {
        "missing \(Array(Set(theirs).subtracting(ours).sorted().prefix(4))), extra \(Array(Set(ours).subtracting(theirs).sorted().prefix(4)))"
    }

    @Test(arguments: fixtures)
    func entriesMatchLLVMNM(_ fixture: String) throws {
        let path = Repository.machOFixture(fixture)
        let ours = try shipcheck(path)
        let theirs = llvmNM([path])
        #expect(ours.count > 5)
        #expect(ours.count == theirs.count, "\(fixture): \(ours.count) vs \(theirs.count)")
        #expect(ours == theirs, "\(fixture): \(difference(ours, theirs))")
    }

    @Test(arguments: universalSlices.flatMap { file in file.architectures.map { (file.file, $0) } })
    func eachSliceOfAUniversalFileMatchesLLVMNM(_ file: String, _ architecture: String) throws {
        let path = Repository.path("Tests/Fixtures/" + file)
        var options = SymbolListOptions()
        options.architecture = architecture
        let ours = try shipcheck(path, options: options)
        let theirs = llvmNM(["--arch=\(architecture)", path])
        #expect(ours.count > 5)
        #expect(ours == theirs, "\(file) [\(architecture)]: \(difference(ours, theirs))")
        let rows = try ListedSymbol.of(path, options: options)
        #expect(Set(rows.map(\.architecture)) == [architecture])
        // Without --arch: every slice, each row naming its own.
        let all = try ListedSymbol.of(path, options: SymbolListOptions())
        #expect(all.filter { $0.architecture == architecture }.count == rows.count)
        #expect(Set(all.compactMap(\.architecture)) == Self.universalSlices.first { $0.file == file }?.architectures)
    }

    /// A thin image Apple's linker made, read as it is.
    @Test func realAppleBuiltImageMatchesLLVMNM() throws {
        let path = Repository.path("Tests/Fixtures/real-apple/markupsafe-3.0.4-ios_13_0_arm64_iphoneos.so")
        let ours = try shipcheck(path)
        let theirs = llvmNM([path])
        #expect(ours.count > 5)
        #expect(ours == theirs, "\(difference(ours, theirs))")
    }

    /// A fully stripped dylib keeps its exports only in the export trie: they are still listed.
    @Test func strippedDylibStillListsItsExports() throws {
        let stripped = try ListedSymbol.of(
            Repository.machOFixture("libAppLib-stripped.dylib"), options: SymbolListOptions())
        let plain = CommandRunner.run(Toolchain.llvmNM, ["-j", Repository.machOFixture("libAppLib-stripped.dylib")])
            .stdout
        #expect(!plain.contains("MockNetworkService"), "strip removed it from the symbol table")
        #expect(
            stripped.contains {
                $0.mangled == "_$s6AppLib18MockNetworkServiceCACycfC" && $0.letter == "T" && $0.type == "SECT"
            })
    }

    /// `--dynamic`: what dyld sees — the export trie and every import: undefined external
    /// symbols, and what a stripped image keeps only in its bind opcodes or chained fixups.
    @Test(arguments: [
        "App-macos", "App-macos-stripped", "App-ios-stripped", "libAppLib-stripped.dylib", "AppTests.bundle"
    ])
    func dynamicListsExportsAndImports(_ fixture: String) throws {
        let path = Repository.machOFixture(fixture)
        var options = SymbolListOptions()
        options.table = .dynsym
        let ours = try ListedSymbol.of(path, options: options).map(\.mangled).sorted()
        func lastColumn(_ line: Substring) -> String { String(line.split(separator: " ").last!) }
        let dyldInfo = CommandRunner.run(Toolchain.llvmNM, ["--dyldinfo-only", path]).stdout.split(separator: "\n")
            .filter { !$0.contains("<redacted function ") }
        let exports = dyldInfo.filter { !$0.hasPrefix("                 U ") }.map(lastColumn)
        let symtabImports = CommandRunner.run(Toolchain.llvmNM, ["-u", "-j", path]).stdout.split(separator: "\n").map(
            String.init)
        let bindImports = dyldInfo.filter { $0.hasPrefix("                 U ") }.map(lastColumn)
        let chainedImports = CommandRunner.run(
            Toolchain.tool("llvm-objdump", xcodeName: "objdump"), ["--macho", "--dyld-info", path]
        )
        .stdout.split(separator: "\n").filter { $0.contains(" bind ") }.map(lastColumn)
        let expected = exports + Set(symtabImports + bindImports + chainedImports)
        #expect(ours == expected.sorted(), "\(difference(ours, expected))")
        if fixture.hasSuffix("stripped") {
            #expect(Set(ours).isSuperset(of: bindImports + chainedImports), "imports only dyld records")
        }
    }

    /// Apple's nm shows the C-level name (`_$s…`); the demangler gets the Swift name (`$s…`).
    @Test func swiftNamesAreDemangledWithoutTheLeadingUnderscore() throws {
        var options = SymbolListOptions()
        options.definedOnly = true
        let rows = try ListedSymbol.of(Repository.machOFixture("App-macos"), options: options).filter {
            $0.mangled.hasPrefix("_$s")
        }
        #expect(rows.count > 40)
        let reference = CommandRunner.run(
            Toolchain.tool("swift-demangle"), [],
            input: rows.map { String($0.mangled.dropFirst()) }.joined(separator: "\n") + "\n")
        let expected = reference.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(rows.count).map(
            String.init)
        let mismatches = zip(rows, expected).filter { ($0.0.demangled ?? $0.0.mangled) != $0.1 }.prefix(3).map {
            "\($0.0.mangled): \($0.0.demangled ?? "nil") vs \($0.1)"
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(
            rows.contains {
                $0.demangled == "AppLib.MockNetworkService.__allocating_init() -> AppLib.MockNetworkService"
            })
        // C names keep their underscore and are not demangled.
        let main = try ListedSymbol.of(Repository.machOFixture("App-macos"), options: options).first {
            $0.mangled == "_main"
        }
        #expect(main != nil && main?.demangled == nil)
    }

    @Test func sizesAreTheDistanceToTheNextSymbol() throws {
        var options = SymbolListOptions()
        options.definedOnly = true
        let rows = try ListedSymbol.of(Repository.machOFixture("App-macos"), options: options)
        let text = rows.filter { $0.section == "__TEXT,__text" }.sorted { $0.value < $1.value }
        #expect(text.count > 10)
        for (current, next) in zip(text, text.dropFirst()) where next.value != current.value {
            #expect(current.size == next.value - current.value, "\(current.mangled)")
        }
    }

    @Test func textJSONAndCSVNameTheSlice() throws {
        var options = SymbolListOptions()
        options.grep = "MockNetworkServiceCMn"
        let path = Repository.machOFixture("App-universal")
        #expect(try ListedSymbol.of(path, options: options).count == 2)
        let text = String(
            decoding: try ListedSymbol.listing(of: [path], options: options, format: .text), as: UTF8.self)
        #expect(text.contains("App-universal[x86_64]: ") && text.contains("App-universal[arm64]: "))
        let csv = String(decoding: try ListedSymbol.listing(of: [path], options: options, format: .csv), as: UTF8.self)
        #expect(csv.contains("App-universal[arm64],,"))
        let json =
            try JSONSerialization.jsonObject(
                with: Data(try ListedSymbol.listing(of: [path], options: options, format: .json))) as? [[String: Any]]
        #expect(Set(json?.compactMap { $0["architecture"] as? String } ?? []) == ["arm64", "x86_64"])
        #expect(json?.first?["section"] as? String == "__TEXT,__constg_swiftt")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
