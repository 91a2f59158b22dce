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
        image: Int, symbol: borrowing BinarySymbol, demangled: [UInt8]?, to output: inout [UInt8]
    ) {
        output += rowPrefixes[image]
        switch format {
        case .text: appendText(symbol, demangled: demangled, to: &output)
        case .csv: appendCSV(symbol, demangled: demangled, to: &output)
        case .json: appendJSON(symbol, demangled: demangled, to: &output)
        }
    }

    /// `VALUE SIZE L TYPE BINDING VISIBILITY SECTION NAME`, nm-like, demangled name last.
    private func appendText(_ symbol: borrowing BinarySymbol, demangled: [UInt8]?, to output: inout [UInt8]) {
        if symbol.section == "UND" {
            Self.appendSpaces(16, to: &output)
        } else {
            Self.appendHex(symbol.value, to: &output)
        }
        output.append(UInt8(ascii: " "))
        Self.appendDecimal(symbol.size, width: 8, to: &output)
        output.append(UInt8(ascii: " "))
        output += symbol.letter.utf8
        output.append(UInt8(ascii: " "))
        Self.appendPadded(symbol.type, width: 7, to: &output)
        Self.appendPadded(symbol.binding, width: 7, to: &output)
        Self.appendPadded(symbol.visibility, width: 10, to: &output)
        Self.appendPadded(symbol.section, width: 20, to: &output)
        if let demangled { output += demangled } else { output += symbol.name.utf8 }
        output.append(UInt8(ascii: "\n"))
    }

    // Byte by byte into the array, in this module: the engine's `ByteSink` helpers and
    // `repeatElement` ran unspecialised here, through their protocols.
    private static func appendSpaces(_ count: Int, to output: inout [UInt8]) {
        for _ in 0..<max(count, 0) { output.append(UInt8(ascii: " ")) }
    }

    /// Sixteen lower-case hex digits, leading zeros kept, appended in one go (one capacity check).
    private static func appendHex(_ value: UInt64, to output: inout [UInt8]) {
        output.append(contentsOf: HexDigits(value: value))
    }

    /// The sixteen lower-case hex digits of a value, as a collection (made as they are copied).
    private struct HexDigits: RandomAccessCollection {
        let value: UInt64
        var startIndex: Int { 0 }
        var endIndex: Int { 16 }

        subscript(position: Int) -> UInt8 {
            let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * position)) & 0xF
            return digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
        }
    }

    /// Right-aligned decimal digits.
    private static func appendDecimal(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        var digitCount = 1, power: UInt64 = 10
        while digitCount < 20, value >= power {
            digitCount += 1
            power = power &* 10
        }
        appendSpaces(width - digitCount, to: &output)
        output.appendDecimal(value)
    }

    /// The text left-aligned in `width` columns, then one space.
    private static func appendPadded(_ text: String, width: Int, to output: inout [UInt8]) {
        let start = output.count
        output += text.utf8
        appendSpaces(max(0, width - (output.count - start)) + 1, to: &output)
    }

    /// The columns after path and member: value, size, letter, type, binding, visibility,
    /// section, mangled, demangled.
    private func appendCSV(
        _ symbol: borrowing BinarySymbol, demangled: [UInt8]?, to output: inout [UInt8]
    ) {
        Self.appendHex(symbol.value, to: &output)
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
        _ symbol: borrowing BinarySymbol, demangled: [UInt8]?, to output: inout [UInt8]
    ) {
        output += ",\"value\":\"".utf8
        Self.appendHex(symbol.value, to: &output)
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
