import ScanEngine
import ShipcheckCore
import Synchronization

/// What `shipcheck symbols` lists and how.
package struct SymbolListOptions: Sendable {
    package var table: SymbolTableKind = .symtab
    package var demangle: DemangleStyle = .full
    package var definedOnly = false
    package var undefinedOnly = false
    /// Regex matched against the mangled and the demangled name.
    package var grep: String?
    package var sizeSort = false
    /// Only this slice of universal files (`--arch arm64`); nil: every slice.
    package var architecture: String?

    package init() {}
}

/// Lists symbols like `nm`, with Swift and C++ names demangled in-process and in parallel.
///
/// Which symbols: what `llvm-nm` prints by default — every ELF table entry except the reserved
/// null entry, section and file symbols; every Mach-O `nlist` entry except debug (stab) entries,
/// plus the exports a stripped Mach-O image keeps only in its export trie (`--add-dyldinfo`).
/// Mach-O names keep their leading `_` (as Apple's nm shows them); it is dropped for demangling.
///
/// The listing is written as it is made, one file after another: each file's symbols are demangled
/// and formatted in chunks on every core, straight into byte buffers handed to `write` in
/// order. No row is made and memory stays bounded by the chunks in flight, not by the file.
package final class SymbolListingWriter: Sendable {
    private let format: SymbolFormat
    private let showPath: Bool
    /// Called in order, one chunk at a time, from whichever worker completes it.
    private let write: @Sendable (borrowing ByteView) -> Void
    private let wroteRow = Atomic(false)

    /// Writes the format's header (CSV column names, JSON's opening bracket) at once.
    package init(format: SymbolFormat, showPath: Bool, write: @escaping @Sendable (borrowing ByteView) -> Void) {
        self.format = format
        self.showPath = showPath
        self.write = write
        SymbolRenderer.header(format).withByteView { write($0) }
    }

    /// Lists one file. Nothing is written for a file that cannot be read (the error is thrown);
    /// the members and slices that could not be read are added to `memberErrors`.
    package func add(_ file: BinaryFile, options: SymbolListOptions, memberErrors: inout [InputError])
        throws(InputError)
    {
        let selection = try SymbolSelection(file, options: options, memberErrors: &memberErrors)
        let renderer = SymbolRenderer(format: format, showPath: showPath, origins: selection.images.map(\.origin))
        // A few chunks per core in flight: enough that no core waits for the writer.
        selection.chunks.parallelForEach(
            window: 4 * activeProcessorCount,
            { range -> [UInt8] in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(range.count * 192)
                selection.forEach(in: range) { image, symbol, demangled in
                    renderer.append(image: image, symbol: symbol, demangled: demangled, to: &bytes)
                }
                return bytes
            }, completed: { _, bytes in self.emit(bytes) })
    }

    /// Writes what closes the listing (JSON's closing bracket).
    package func finish() {
        SymbolRenderer.footer(format).withByteView { write($0) }
    }

    /// Called in order, one chunk at a time.
    private func emit(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        // A JSON row starts with the comma after the row before it: the first row has none.
        let isFirst = !wroteRow.exchange(true, ordering: .relaxed)
        bytes.withByteView { bytes in
            bytes.withSlice((format == .json && isFirst ? 1 : 0)..<bytes.count) { write($0) }
        }
    }
}

/// The symbols of one file a listing shows, in listing order, and the one loop that demangles
/// and filters them for both the rows and the written listing.
struct SymbolSelection: Sendable {
    struct Image: Sendable {
        let origin: ImageOrigin
        let symbols: [BinarySymbol]
        /// What the image's names carry before the source name (Mach-O's `_`).
        let prefix: String
    }

    /// Where one listed symbol is.
    struct Entry: Sendable {
        let image: Int32
        let symbol: Int32
    }

    let images: [Image]
    /// Every symbol the filters let through, in listing order (by size, when sorted).
    let entries: [Entry]
    let style: DemangleStyle
    let grep: NamePattern?
    /// Entries per unit of parallel work: a few hundred kilobytes of output.
    private static let chunkSize = 4096

    init(_ file: BinaryFile, options: SymbolListOptions, memberErrors: inout [InputError]) throws(InputError) {
        grep = try options.grep.map { pattern throws(InputError) in
            try NamePattern(pattern, caseInsensitive: false, origin: "--grep")
        }
        style = options.demangle
        memberErrors += file.errors
        var images: [Image] = []
        var entries: [Entry] = []
        for image in file.images {
            let symbols: [BinarySymbol]
            do throws(InputError) {
                symbols = try image.symbols(options.table)
            } catch {
                memberErrors.append(error)  // this member's table; the other members still list
                continue
            }
            let imageIndex = Int32(images.count)
            images.append(Image(origin: image.origin, symbols: symbols, prefix: image.symbolPrefix))
            for index in symbols.indices {
                if options.definedOnly && !symbols[index].isDefined { continue }
                if options.undefinedOnly && symbols[index].isDefined { continue }
                entries.append(Entry(image: imageIndex, symbol: Int32(index)))
            }
        }
        if options.sizeSort {
            entries.sort { first, second in
                let a = images[Int(first.image)].symbols[Int(first.symbol)],
                    b = images[Int(second.image)].symbols[Int(second.symbol)]
                return a.size != b.size ? a.size < b.size : a.name < b.name
            }
        }
        self.images = images
        self.entries = entries
    }

    /// The entries cut into units of parallel work, in order.
    var chunks: [Range<Int>] {
        stride(from: 0, to: entries.count, by: Self.chunkSize).map { $0..<min($0 + Self.chunkSize, entries.count) }
    }

    /// Calls `body` for each entry of `range` that `--grep` lets through, in order, with the
    /// index of its image and its demangled name's bytes (nil: shown as it is).
    func forEach(in range: Range<Int>, _ body: (Int, borrowing BinarySymbol, [UInt8]?) -> Void) {
        let (style, grep, entries) = (style, grep, entries)
        var demangled: [UInt8] = []
        demangled.reserveCapacity(1024)
        for position in range {
            let entry = entries[position]
            let image = Int(entry.image)
            let prefix = images[image].prefix
            let symbol = images[image].symbols[Int(entry.symbol)]
            demangled.removeAll(keepingCapacity: true)
            // Demangled from the name past the image's `_` prefix, without a string of it.
            let found = Demangler.demangle(
                !prefix.isEmpty && symbol.name.hasPrefix(prefix)
                    ? symbol.name.dropFirst(prefix.count) : symbol.name[...],
                style: style, appendingTo: &demangled)
            if let grep, grep.firstMatch(in: symbol.name) == nil,
                !found || grep.firstMatch(in: String(decoding: demangled, as: UTF8.self)) == nil
            {
                continue
            }
            body(image, symbol, found ? demangled : nil)
        }
    }
}
