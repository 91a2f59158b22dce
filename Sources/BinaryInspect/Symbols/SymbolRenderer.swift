import ScanEngine
import ShipcheckCore

/// Output formats of `shipcheck symbols`.
package enum SymbolFormat: String, Sendable, CaseIterable {
    case text, json, csv
}

/// Formats listed symbols straight into byte buffers, one row after another: no row value and
/// no string per row on the way, as a large binary's listing has hundreds of thousands of rows
/// (see docs/performance.md, "Symbol listings straight into bytes").
struct SymbolRenderer: Sendable {
    let format: SymbolFormat
    /// Per image: the bytes each of its rows starts with (its path, slice and member, as the
    /// format shows them).
    private let rowPrefixes: [[UInt8]]

    init(format: SymbolFormat, showPath: Bool, origins: [ImageOrigin]) {
        self.format = format
        rowPrefixes = origins.map { origin in
            var prefix: [UInt8] = []
            switch format {
            case .text:
                if showPath || origin.member != nil || origin.architecture != nil {
                    prefix += "\(origin.displayName): ".utf8
                }
            case .csv:
                // A universal file's slice is named as everywhere else, `path[arch]` (the columns stay those
                // of ELF listings).
                Self.appendCSV(
                    Array((origin.path + (origin.architecture.map { "[\($0)]" } ?? "")).utf8)[...], to: &prefix)
                prefix.append(UInt8(ascii: ","))
                Self.appendCSV(Array((origin.member ?? "").utf8)[...], to: &prefix)
                prefix.append(UInt8(ascii: ","))
            case .json:
                // Each row starts with the comma that ends the row before it (the writer drops the first).
                prefix += ",\n  {\"path\":".utf8
                Self.appendJSONString(Array(origin.path.utf8)[...], to: &prefix)
                if let member = origin.member {
                    prefix += ",\"member\":".utf8
                    Self.appendJSONString(Array(member.utf8)[...], to: &prefix)
                }
                if let architecture = origin.architecture {
                    prefix += ",\"architecture\":".utf8
                    Self.appendJSONString(Array(architecture.utf8)[...], to: &prefix)
                }
            }
            return prefix
        }
    }

    /// What the listing starts with.
    static func header(_ format: SymbolFormat) -> [UInt8] {
        switch format {
        case .text: []
        case .csv: Array("path,member,value,size,letter,type,binding,visibility,section,mangled,demangled\n".utf8)
        case .json: Array("[".utf8)
        }
    }

    /// What the listing ends with.
    static func footer(_ format: SymbolFormat) -> [UInt8] {
        format == .json ? Array("\n]\n".utf8) : []
    }

    /// Appends the row of `symbol` of image number `image`, with its demangled name (nil: none).
    func append(
        image: Int, symbol: borrowing BinarySymbol, demangled: UnsafeRawBufferPointer?, to output: inout [UInt8]
    ) {
        rowPrefixes[image].withUnsafeBufferPointer { output += $0 }
        switch format {
        case .text: appendText(symbol, demangled: demangled, to: &output)
        case .csv: appendCSV(symbol, demangled: demangled, to: &output)
        case .json: appendJSON(symbol, demangled: demangled, to: &output)
        }
    }

    /// `VALUE SIZE L TYPE BINDING VISIBILITY SECTION NAME`, nm-like, demangled name last. The
    /// columns before the name are put together on the stack and appended at once.
    private func appendText(
        _ symbol: borrowing BinarySymbol, demangled: UnsafeRawBufferPointer?, to output: inout [UInt8]
    ) {
        let (type, binding, visibility, section) = (symbol.type, symbol.binding, symbol.visibility, symbol.section)
        let capacity =
            48 + max(8, type.utf8.count + 1) + max(8, binding.utf8.count + 1) + max(11, visibility.utf8.count + 1)
            + max(21, section.utf8.count + 1)
        Self.withColumns(capacity: capacity, appendedTo: &output) { line in
            if section == "UND" { line.spaces(16) } else { line.appendHex(symbol.value) }
            line.append(UInt8(ascii: " "))
            line.decimal(symbol.size, width: 8)
            line.append(UInt8(ascii: " "))
            for byte in symbol.letter.utf8 { line.append(byte) }
            line.append(UInt8(ascii: " "))
            line.padded(type, width: 7)
            line.padded(binding, width: 7)
            line.padded(visibility, width: 10)
            line.padded(section, width: 20)
        }
        if let demangled { output += demangled } else { symbol.name.withUTF8Bytes { output += $0 } }
        output.append(UInt8(ascii: "\n"))
    }

    /// The columns after path and member: value, size, letter, type, binding, visibility,
    /// section, mangled, demangled.
    private func appendCSV(
        _ symbol: borrowing BinarySymbol, demangled: UnsafeRawBufferPointer?, to output: inout [UInt8]
    ) {
        output.appendHex(symbol.value)
        output.append(UInt8(ascii: ","))
        output.appendDecimal(symbol.size)
        for field in [
            String(symbol.letter), symbol.type, symbol.binding, symbol.visibility, symbol.section, symbol.name
        ] {
            output.append(UInt8(ascii: ","))
            Self.appendCSV(field.utf8, to: &output)
        }
        output.append(UInt8(ascii: ","))
        if let demangled { Self.appendCSV(demangled, to: &output) }
        output.append(UInt8(ascii: "\n"))
    }

    private func appendJSON(
        _ symbol: borrowing BinarySymbol, demangled: UnsafeRawBufferPointer?, to output: inout [UInt8]
    ) {
        output += ",\"value\":\"".utf8
        output.appendHex(symbol.value)
        output += "\",\"size\":".utf8
        output.appendDecimal(symbol.size)
        output +=
            ",\"letter\":\"\(symbol.letter)\",\"type\":\"\(symbol.type)\",\"binding\":\"\(symbol.binding)\",\"visibility\":\"\(symbol.visibility)\",\"section\":"
            .utf8
        Self.appendJSONString(symbol.section.utf8, to: &output)
        output += ",\"mangled\":".utf8
        Self.appendJSONString(symbol.name.utf8, to: &output)
        output += ",\"demangled\":".utf8
        if let demangled { Self.appendJSONString(demangled, to: &output) } else { output += "null".utf8 }
        output.append(UInt8(ascii: "}"))
    }

    /// Lets `body` write at most `capacity` bytes on the stack, then appends them in one go:
    /// a row's small pieces one by one would each check the array's capacity and uniqueness.
    private static func withColumns(
        capacity: Int, appendedTo output: inout [UInt8], _ body: (inout ColumnWriter) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = ColumnWriter(buffer: buffer)
            body(&writer)
            output += UnsafeBufferPointer(rebasing: buffer[..<writer.count])
        }
    }

    /// Writes into a buffer its caller has made large enough.
    private struct ColumnWriter: ByteSink {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        mutating func spaces(_ spaces: Int) {
            guard spaces > 0 else { return }
            buffer.baseAddress!.advanced(by: count).initialize(repeating: UInt8(ascii: " "), count: spaces)
            count += spaces
        }

        /// Right-aligned decimal digits.
        mutating func decimal(_ value: UInt64, width: Int) {
            var digitCount = 1, power: UInt64 = 10
            while digitCount < 20, value >= power {
                digitCount += 1
                power = power &* 10
            }
            spaces(width - digitCount)
            appendDecimal(value)
        }

        /// The text left-aligned in `width` columns, then one space.
        mutating func padded(_ text: String, width: Int) {
            let length = text.withUTF8Bytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[count...]).copyMemory(
                    from: bytes)
                return bytes.count
            }
            count += length
            spaces(max(0, width - length) + 1)
        }
    }

    private static func appendCSV(_ field: some Collection<UInt8>, to output: inout [UInt8]) {
        let needsQuotes = field.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard needsQuotes else {
            output += field
            return
        }
        output.append(UInt8(ascii: "\""))
        for byte in field {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendJSONString(_ text: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): output += "\\\"".utf8
            case UInt8(ascii: "\\"): output += "\\\\".utf8
            case 0x0A: output += "\\n".utf8
            case 0x0D: output += "\\r".utf8
            case 0x09: output += "\\t".utf8
            case 0..<0x20:
                output += "\\u00".utf8
                let low = byte & 0xF  // the high digit of a control character is 0 or 1
                output.append(UInt8(ascii: "0") + (byte >> 4))
                output.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") - 10 + low)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
