import BinaryInspect
import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Testing

/// The listing against the reference tools, run on the same files.
@Suite struct SymbolListingTests {
    static let libswiftCore = Toolchain.root.appendingPathComponent("lib/swift/linux/libswiftCore.so").path

    /// llvm-nm's names for a file (`-j`: one name per line; archives add "member.o:" headers).
    private func llvmNMNames(_ arguments: [String]) -> [String] {
        let result = CommandRunner.run(Toolchain.llvmNM, ["-j"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).filter { !($0.hasSuffix(".o:")) }
    }

    /// The first few names in one list and not the other (a readable failure, not a dump).
    private func difference(_ ours: [String], _ theirs: [String]) -> String {
        let missing = Set(theirs).subtracting(ours).sorted().prefix(5)
        let extra = Set(ours).subtracting(theirs).sorted().prefix(5)
        return "missing \(Array(missing)), extra \(Array(extra))"
    }

    @Test(.needsELF, arguments: [false, true])
    func countsAndNamesMatchLLVMNMOnLibSwiftCore(_ dynamic: Bool) throws {
        var options = SymbolListOptions()
        options.table = dynamic ? .dynsym : .symtab
        options.demangle = .none
        let rows = try ListedSymbol.of(Self.libswiftCore, options: options)
        // llvm-nm appends symbol versions (`@GLIBCXX_3.4`) to dynamic names; shipcheck does not.
        let reference = llvmNMNames(dynamic ? ["-D", Self.libswiftCore] : [Self.libswiftCore])
            .map { $0.split(separator: "@", maxSplits: 1).first.map(String.init) ?? $0 }
        #expect(rows.count > 1000)
        #expect(rows.count == reference.count)
        #expect(Set(rows.map(\.mangled)) == Set(reference), "\(difference(rows.map(\.mangled), reference))")
    }

    @Test(.needsELF) func samplesMatchLLVMNMIncludingArchiveMembers() throws {
        for file in ["App", "libAppLib.a", "libAppTestSupport.a", "libSwiftUI.so"] {
            let path = SampleBinaries.path("onone", file)
            let rows = try ListedSymbol.of(path, options: SymbolListOptions())
            #expect(rows.count == llvmNMNames([path]).count, "\(file)")
        }
        let members = Set(
            try ListedSymbol.of(SampleBinaries.path("onone", "libAppLib.a"), options: SymbolListOptions()).compactMap(
                \.member))
        #expect(members == ["ContentView.o", "Fixtures.o"])
    }

    @Test(.needsELF) func demangledNamesMatchSwiftDemangle() throws {
        var options = SymbolListOptions()
        options.definedOnly = true
        let rows = try ListedSymbol.of(SampleBinaries.path("onone"), options: options).filter {
            Demangler.isSwift($0.mangled)
        }
        #expect(rows.count > 50)
        let reference = CommandRunner.run(
            Toolchain.tool("swift-demangle"), [], input: rows.map(\.mangled).joined(separator: "\n") + "\n")
        let expected = reference.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(rows.count).map(
            String.init)
        let mismatches = zip(rows, expected).filter { ($0.0.demangled ?? $0.0.mangled) != $0.1 }.prefix(3).map {
            "\($0.0.mangled): \($0.0.demangled ?? "nil") vs \($0.1)"
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(expected.count == rows.count)
    }

    /// The Swift runtime's demangler (and `swift-demangle`) dereferences a null node on these
    /// mutated preview-registry names (found by the macho fuzz target); shipcheck shows them
    /// mangled and goes on demangling the names after them, on this thread and others.
    @Test func namesThatCrashTheRuntimeDemanglerStayMangled() async {
        let crashing = [
            "$s6AppLi$1s0A36b07Lib0022ContentViewswift_tiAIefMX22_0_33_292DE38B500DCC2DB32A7B7C10BD3653Ll7PreviewfMf_15PreviewRegistryfMu_VMn",
            "$s6AppLib33_292DE38B500DCC2DB32A7B7C10BD3653LlfMf_"
        ]
        let valid = "$s6AppLib11ContentViewV4bodyQrvg"
        for name in crashing {
            #expect(Demangler.demangleSwift(name) == nil)
            #expect(Demangler.demangleSwift(valid) == "AppLib.ContentView.body.getter : some")
        }
        let results = await withTaskGroup(of: (String?, String?).self) { group in
            for _ in 0..<8 { group.addTask { (Demangler.demangleSwift(crashing[0]), Demangler.demangleSwift(valid)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0.0 == nil && $0.1 == "AppLib.ContentView.body.getter : some" })
    }

    @Test func cxxNamesAreDemangledLikeCxxFilt() {
        #expect(Demangler.demangle("_ZN4llvm5APIntC2Ejmb") == "llvm::APInt::APInt(unsigned int, unsigned long, bool)")
        #expect(Demangler.demangle("main") == nil)
        #expect(Demangler.demangle("_Znot-a-name") == nil)
    }

    @Test func simplifiedDemanglingDropsStdlibQualifiersAndSpecialisationDetails() {
        let full =
            "generic specialization <Swift.Int> of (extension in Foundation):Swift.Array.description.getter : Swift.String"
        #expect(SimplifiedDemangling.simplify(full) == "specialized Array.description.getter : String")
    }

    @Test(.needsELF) func filtersAndSizeSort() throws {
        let path = SampleBinaries.path("onone")
        var options = SymbolListOptions()
        options.undefinedOnly = true
        let undefined = try ListedSymbol.of(path, options: options)
        #expect(!undefined.isEmpty && undefined.allSatisfy { $0.section == "UND" })
        options = SymbolListOptions()
        options.grep = "MockNetworkService"
        options.sizeSort = true
        let mock = try ListedSymbol.of(path, options: options)
        #expect(
            !mock.isEmpty
                && mock.allSatisfy {
                    ($0.demangled ?? $0.mangled).contains("MockNetworkService")
                        || $0.mangled.contains("MockNetworkService")
                })
        #expect(mock.map(\.size) == mock.map(\.size).sorted())
    }

    @Test(.needsELF) func csvAndJSONCarryBothNames() throws {
        var options = SymbolListOptions()
        options.grep = "MockNetworkServiceC5fetch"
        let path = SampleBinaries.path("onone")
        #expect(try ListedSymbol.of(path, options: options).count == 1)
        let csv = String(decoding: try ListedSymbol.listing(of: [path], options: options, format: .csv), as: UTF8.self)
        #expect(csv.hasPrefix("path,member,value,size,letter,type,binding,visibility,section,mangled,demangled\n"))
        #expect(
            csv.contains(
                ",FUNC,GLOBAL,PROTECTED,.text,$s6AppLib18MockNetworkServiceC5fetchyS2SF,AppLib.MockNetworkService.fetch(Swift.String) -> Swift.String\n"
            ))
        let json = try ListedSymbol.listing(of: [path], options: options, format: .json)
        let decoded = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]]
        #expect(decoded?.count == 1)
        #expect(
            decoded?.first?["demangled"] as? String == "AppLib.MockNetworkService.fetch(Swift.String) -> Swift.String")
    }

    /// One JSON array over every file, however the rows fall into chunks; an empty listing is
    /// still an array.
    @Test(.needsELF) func jsonIsOneArrayOverSeveralFiles() throws {
        var options = SymbolListOptions()
        options.demangle = .none
        let paths = [SampleBinaries.path("onone"), Self.libswiftCore]
        let expected = try paths.map { try ListedSymbol.of($0, options: options).map(\.mangled) }.flatMap { $0 }
        #expect(expected.count > 10_000, "spans many chunks")
        let json =
            try JSONSerialization.jsonObject(
                with: Data(try ListedSymbol.listing(of: paths, options: options, format: .json))) as? [[String: Any]]
        #expect(json?.compactMap { $0["mangled"] as? String } == expected)
        #expect(Set(json?.compactMap { $0["path"] as? String } ?? []) == Set(paths))
        options.grep = "no symbol is called this"
        #expect(try ListedSymbol.listing(of: paths, options: options, format: .json) == Array("[\n]\n".utf8))
    }
}
