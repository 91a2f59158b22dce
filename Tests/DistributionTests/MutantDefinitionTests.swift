import Foundation
import ShipcheckTestSupport
import Testing

/// The mutants `make mutants` applies (Tests/Fixtures/mutants/*.txt) still name code that exists:
/// each fragment occurs exactly once in its file and each block is complete, so a refactoring that
/// moves a decoder makes this fail in `make test` rather than leave the mutation check stale.
@Suite struct MutantDefinitionTests {
    struct Mutant: CustomStringConvertible {
        var fields: [String: String]
        var description: String { fields["mutant"] ?? "?" }
    }

    static let mutants: [Mutant] = {
        let folder = Repository.path("Tests/Fixtures/mutants")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasSuffix(".txt")
        }
        return names.sorted().flatMap { name -> [Mutant] in
            let text = (try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\n\n").compactMap { block in
                var fields: [String: String] = [:]
                for line in block.split(separator: "\n") where !line.hasPrefix("#") {
                    guard let colon = line.range(of: ": ") else { continue }
                    fields[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
                }
                return fields.isEmpty ? nil : Mutant(fields: fields)
            }
        }
    }()

    @Test func thereAreMutants() {
        #expect(Self.mutants.count >= 10)
    }

    @Test(arguments: mutants)
    func eachMutantNamesOneFragmentThatExists(_ mutant: Mutant) throws {
        for key in ["mutant", "file", "replace", "with", "tests"] {
            #expect(mutant.fields[key]?.isEmpty == false, "\(mutant): no \(key)")
        }
        let file = try #require(mutant.fields["file"])
        let source = try String(contentsOfFile: Repository.path(file), encoding: .utf8)
        let fragment = try #require(mutant.fields["replace"])
        #expect(
            source.components(separatedBy: fragment).count == 2, "\(mutant): '\(fragment)' not exactly once in \(file)")
        #expect(fragment != mutant.fields["with"], "\(mutant): the replacement changes nothing")
    }
}
