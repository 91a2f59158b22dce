import Dispatch
import ShipcheckCore

/// What `shipcheck symbols` lists and how.
public struct SymbolListOptions: Sendable {
    public var table: SymbolTableKind = .symtab
    public var demangle: DemangleStyle = .full
    public var definedOnly = false
    public var undefinedOnly = false
    /// Regex matched against the mangled and the demangled name.
    public var grep: String?
    public var sizeSort = false
    /// Only this slice of universal files (`--arch arm64`); nil: every slice.
    public var architecture: String?

    public init() {}
}

/// One row of the listing.
public struct SymbolRow: Sendable, Hashable {
    public var path: String
    public var member: String?
    /// The universal-file slice, nil for thin files.
    public var architecture: String?
    public var value: UInt64
    public var size: UInt64
    /// nm's letter (T, t, U, D, S, …).
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
/// Which symbols: what `llvm-nm` prints by default — every ELF table entry except the reserved
/// null entry, section and file symbols; every Mach-O `nlist` entry except debug (stab) entries,
/// plus the exports a stripped Mach-O image keeps only in its export trie (`--add-dyldinfo`).
/// Mach-O names keep their leading `_` (as Apple's nm shows them); it is dropped for demangling.
public enum SymbolListing {
    /// All or nothing: the first unreadable archive member or slice fails the whole file.
    public static func rows(of path: String, options: SymbolListOptions) throws(InputError) -> [SymbolRow] {
        var memberErrors: [InputError] = []
        let rows = try rows(of: path, options: options, memberErrors: &memberErrors)
        if let first = memberErrors.first { throw first }
        return rows
    }

    /// The rows of every readable member and slice; the members and slices that could not be
    /// read are added to `memberErrors`.
    public static func rows(of path: String, options: SymbolListOptions, memberErrors: inout [InputError]) throws(InputError) -> [SymbolRow] {
        try rows(of: BinaryFile(path: path, architecture: options.architecture), options: options, memberErrors: &memberErrors)
    }

    /// The rows of a binary already opened (bytes read out of a bundle or zip).
    public static func rows(of file: BinaryFile, options: SymbolListOptions, memberErrors: inout [InputError]) throws(InputError) -> [SymbolRow] {
        let grep = try options.grep.map { pattern throws(InputError) in try NamePattern(pattern, caseInsensitive: false, origin: "--grep") }
        memberErrors += file.errors
        var rows: [SymbolRow] = []
        for image in file.images {
            let symbols: [BinarySymbol]
            do throws(InputError) {
                symbols = try image.symbols(options.table)
            } catch {
                memberErrors.append(error)  // this member's table; the other members still list
                continue
            }
            // Indices, not copies: a copied symbol array would retain every name once more.
            let selected = symbols.indices.filter { index in
                if options.definedOnly && !symbols[index].isDefined { return false }
                if options.undefinedOnly && symbols[index].isDefined { return false }
                return true
            }
            // Demangling dominates on big binaries: build the rows on every core, each worker
            // initialising its own stretch of the array in place (no copies of 300k rows).
            let origin = image.origin
            let style = options.demangle
            let prefix = image.symbolPrefix
            let source = UncheckedSendable(symbols)
            var imageRows = [SymbolRow](unsafeUninitializedCapacity: selected.count) { buffer, initialized in
                let target = UncheckedSendable(buffer.baseAddress)
                let chunkSize = 4096
                let chunkCount = (selected.count + chunkSize - 1) / chunkSize
                DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                    for index in chunk * chunkSize..<min((chunk + 1) * chunkSize, selected.count) {
                        let symbol = source.value[selected[index]]
                        var name = symbol.name
                        // Demangled from the name's own bytes, past the image's `_` prefix: no string per name.
                        let demangled = name.withUTF8 { utf8 in
                            Demangler.demangle(utf8: SymbolNames.sourceName(UnsafeRawBufferPointer(utf8), prefix: prefix), style: style)
                        }
                        (target.value! + index).initialize(to: SymbolRow(
                            path: origin.path, member: origin.member, architecture: origin.architecture, value: symbol.value, size: symbol.size,
                            letter: symbol.letter, type: symbol.type, binding: symbol.binding, visibility: symbol.visibility,
                            section: symbol.section, mangled: symbol.name, demangled: demangled))
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
