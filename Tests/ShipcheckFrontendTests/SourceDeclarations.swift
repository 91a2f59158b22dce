import Foundation
import ShipcheckTestSupport

/// What the package's sources declare, read from Sources/ (what a registry must hold).
enum SourceDeclarations {
    /// Every Swift file under Sources/.
    static func texts() throws -> [String] {
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Repository.path("Sources")).filter {
            $0.hasSuffix(".swift")
        }
        return try sources.map { try String(contentsOfFile: Repository.path("Sources/\($0)"), encoding: .utf8) }
    }

    /// `enum|struct|class NAME: P` in `texts`, where P is one of `protocols`.
    static func types(in texts: [String], conformingTo protocols: Set<String>) throws -> Set<String> {
        let typePattern = try Regex(
            #"(?m)^\s*(?:public |package |internal )?(?:final )?(?:enum|struct|class) (\w+): (\w+)"#)
        var declared: Set<String> = []
        for text in texts {
            for match in text.matches(of: typePattern) where protocols.contains(String(match.output[2].substring!)) {
                declared.insert(String(match.output[1].substring!))
            }
        }
        return declared
    }
}
