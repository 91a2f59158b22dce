import CLibELF
import Dispatch
import ShipcheckCore

/// What `shipcheck symbols` lists and how.
public struct SymbolListOptions: Sendable {
    public var table: ELFSymbolTableKind = .symtab
    public var demangle: DemangleStyle = .full
    public var definedOnly = false
    public var undefinedOnly = false
    /// Regex matched against the mangled and the demangled name.
    public var grep: String?
    public var sizeSort = false

    public init() {}
}

/// One row of the listing.
public struct SymbolRow: Sendable, Hashable {
    public var path: String
    public var member: String?
    public var value: UInt64
    public var size: UInt64
    /// nm's letter (T, t, U, D, …).
    public var letter: Character
    public var type: String
    public var binding: String
    public var visibility: String
    public var section: String
    public var mangled: String
    public var demangled: String?

    /// The name to show: demangled where there is one.
    public var displayName: String { demangled ?? mangled }
}

/// Lists symbols like `nm`, with Swift and C++ names demangled in-process and in parallel.
///
/// Which symbols: every entry of the table except the reserved null entry, section symbols and
/// file symbols — the set `llvm-nm` prints by default.
public enum SymbolListing {
    /// All or nothing: the first unreadable archive member fails the whole file.
    public static func rows(of path: String, options: SymbolListOptions) throws(InputError) -> [SymbolRow] {
        var memberErrors: [InputError] = []
        let rows = try rows(of: path, options: options, memberErrors: &memberErrors)
        if let first = memberErrors.first { throw first }
        return rows
    }

    /// The rows of every readable member; the archive members that could not be read are added
    /// to `memberErrors`.
    public static func rows(of path: String, options: SymbolListOptions, memberErrors: inout [InputError]) throws(InputError) -> [SymbolRow] {
        let grep = try options.grep.map { pattern throws(InputError) in try NamePattern(pattern, caseInsensitive: false, origin: "--grep") }
        let file = try ELFFile(path: path)
        memberErrors += file.memberErrors
        var rows: [SymbolRow] = []
        for image in file.images {
            let table: ELFSymbolTable
            do throws(InputError) {
                table = try ELFSymbolTable(image: image, kind: options.table)
            } catch {
                memberErrors.append(error)  // this member's table; the other members still list
                continue
            }
            let sections = image.sections
            let symbols = table.symbols
            // Indices, not copies: a copied symbol array would retain every name once more.
            let selected = symbols.indices.filter { index in
                let symbol = symbols[index]
                guard symbol.type != UInt8(STT_SECTION), symbol.type != UInt8(STT_FILE) else { return false }
                if options.definedOnly && !symbol.isDefined { return false }
                if options.undefinedOnly && symbol.isDefined { return false }
                return true
            }
            // Demangling dominates on big binaries: build the rows on every core, each worker
            // initialising its own stretch of the array in place (no copies of 300k rows).
            let member = image.member
            let style = options.demangle
            var imageRows = [SymbolRow](unsafeUninitializedCapacity: selected.count) { buffer, initialized in
                let target = RowBuffer(base: buffer.baseAddress)
                let chunkSize = 4096
                let chunkCount = (selected.count + chunkSize - 1) / chunkSize
                DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                    for index in chunk * chunkSize..<min((chunk + 1) * chunkSize, selected.count) {
                        let symbol = symbols[selected[index]]
                        (target.base! + index).initialize(to: SymbolRow(
                            path: path, member: member, value: symbol.value, size: symbol.size,
                            letter: symbol.nmLetter(sections: sections), type: symbol.typeName, binding: symbol.bindingName,
                            visibility: symbol.visibilityName, section: symbol.sectionName(sections: sections),
                            mangled: symbol.name, demangled: Demangler.demangle(symbol.name, style: style)))
                    }
                }
                initialized = selected.count
            }
            if let grep {
                imageRows.removeAll { row in
                    grep.firstMatch(in: row.mangled) == nil && (row.demangled.map { grep.firstMatch(in: $0) == nil } ?? true)
                }
            }
            if rows.isEmpty { rows = imageRows } else { rows += imageRows }
        }
        if options.sizeSort {
            rows.sort { $0.size != $1.size ? $0.size < $1.size : $0.mangled < $1.mangled }
        }
        return rows
    }
}

/// The rows' storage, handed to the workers; each writes only its own indices.
private struct RowBuffer: @unchecked Sendable {
    let base: UnsafeMutablePointer<SymbolRow>?
}
