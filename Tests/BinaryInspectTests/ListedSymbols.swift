import BinaryInspect
import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization

/// A symbol as `shipcheck symbols -f json` lists it. The tests read listings the way users get
/// them, through `SymbolListingWriter`, not through a second listing path of their own.
struct ListedSymbol: Decodable, Hashable {
    var path: String
    var member: String?
    var architecture: String?
    var value: UInt64
    var size: UInt64
    var letter: String
    var type: String
    var binding: String
    var visibility: String
    var section: String
    var mangled: String
    var demangled: String?

    private enum CodingKeys: String, CodingKey {
        case path, member, architecture, value, size, letter, type, binding, visibility, section, mangled, demangled
    }

    init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        path = try row.decode(String.self, forKey: .path)
        member = try row.decodeIfPresent(String.self, forKey: .member)
        architecture = try row.decodeIfPresent(String.self, forKey: .architecture)
        let hex = try row.decode(String.self, forKey: .value)
        guard let value = UInt64(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: row, debugDescription: "not hexadecimal: \(hex)")
        }
        self.value = value
        size = try row.decode(UInt64.self, forKey: .size)
        letter = try row.decode(String.self, forKey: .letter)
        type = try row.decode(String.self, forKey: .type)
        binding = try row.decode(String.self, forKey: .binding)
        visibility = try row.decode(String.self, forKey: .visibility)
        section = try row.decode(String.self, forKey: .section)
        mangled = try row.decode(String.self, forKey: .mangled)
        demangled = try row.decodeIfPresent(String.self, forKey: .demangled)
    }

    /// The listing of one file, all or nothing: an unreadable member or slice throws.
    static func of(_ path: String, options: SymbolListOptions = SymbolListOptions()) throws(InputError)
        -> [ListedSymbol]
    {
        let json = try listing(of: [path], options: options, format: .json)
        do {
            return try JSONDecoder().decode([ListedSymbol].self, from: Data(json))
        } catch {
            throw InputError(path: path, message: "the JSON listing does not decode: \(error)")
        }
    }

    /// What `shipcheck symbols` writes for `paths` (naming each file when there are several).
    static func listing(of paths: [String], options: SymbolListOptions, format: SymbolFormat) throws(InputError)
        -> [UInt8]
    {
        // Written from the listing's workers, one chunk at a time.
        let bytes = Mutex<[UInt8]>([])
        let writer = SymbolListingWriter(format: format, showPath: paths.count > 1) { chunk in
            let copy = chunk.array()
            bytes.withLock { $0 += copy }
        }
        for path in paths {
            var memberErrors: [InputError] = []
            try writer.add(
                BinaryFile(path: path, architecture: options.architecture), options: options,
                memberErrors: &memberErrors)
            if let first = memberErrors.first { throw first }
        }
        writer.finish()
        return bytes.withLock { $0 }
    }
}
