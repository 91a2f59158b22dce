import ShipcheckCore

/// Output formats of `shipcheck symbols`.
public enum SymbolFormat: String, Sendable, CaseIterable {
    case text, json, csv
}

/// Renders symbol rows into one byte buffer (no per-row String concatenation on the hot path:
/// a 300k-symbol listing is written with a single `write`).
public enum SymbolRenderer {
    public static func render(_ rows: [SymbolRow], format: SymbolFormat, showPath: Bool) -> [UInt8] {
        let parts = renderParts(rows, format: format, showPath: showPath)
        var output: [UInt8] = []
        output.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { output += part }
        return output
    }

    /// The listing as consecutive byte buffers (write them in order): text and CSV rows are
    /// independent, so chunks are rendered on every core and never joined into one copy.
    public static func renderParts(_ rows: [SymbolRow], format: SymbolFormat, showPath: Bool) -> [[UInt8]] {
        if format == .json {
            var output: [UInt8] = []
            output.reserveCapacity(rows.count * 200)
            json(rows, into: &output)
            return [output]
        }
        let header = format == .csv ? Array("path,member,value,size,letter,type,binding,visibility,section,mangled,demangled\n".utf8) : []
        let chunkSize = 8192
        let chunks = stride(from: 0, to: rows.count, by: chunkSize).map { rows[$0..<min($0 + chunkSize, rows.count)] }
        return [header] + chunks.parallelMap { chunk -> [UInt8] in
            var part: [UInt8] = []
            part.reserveCapacity(chunk.count * 160)
            if format == .text { text(chunk, showPath: showPath, into: &part) } else { csv(chunk, into: &part) }
            return part
        }
    }

    /// `VALUE SIZE L TYPE BINDING VISIBILITY SECTION NAME`, nm-like, demangled name last.
    private static func text(_ rows: ArraySlice<SymbolRow>, showPath: Bool, into output: inout [UInt8]) {
        // Rows borrowed in place: `for row in rows` would copy each one (and retain its nine
        // strings) only to print it.
        rows.withUnsafeBufferPointer { rows in
            for index in rows.indices { appendText(of: rows[index], showPath: showPath, to: &output) }
        }
    }

    private static func appendText(of row: borrowing SymbolRow, showPath: Bool, to output: inout [UInt8]) {
        if showPath || row.member != nil || row.architecture != nil {
            output += row.path.utf8
            if let architecture = row.architecture { output += "[\(architecture)]".utf8 }
            if let member = row.member { output += "(\(member))".utf8 }
            output += ": ".utf8
        }
        if row.section == "UND" {
            output += repeatElement(UInt8(ascii: " "), count: 16)
        } else {
            appendHex(row.value, width: 16, to: &output)
        }
        output.append(UInt8(ascii: " "))
        appendDecimal(row.size, width: 8, to: &output)
        output.append(UInt8(ascii: " "))
        output += row.letter.utf8
        output.append(UInt8(ascii: " "))
        appendPadded(row.type, width: 7, left: true, to: &output)
        appendPadded(row.binding, width: 7, left: true, to: &output)
        appendPadded(row.visibility, width: 10, left: true, to: &output)
        appendPadded(row.section, width: 20, left: true, to: &output)
        output += row.displayName.utf8
        output.append(UInt8(ascii: "\n"))
    }

    private static func csv(_ rows: ArraySlice<SymbolRow>, into output: inout [UInt8]) {
        for row in rows {
            // A universal file's slice is named as everywhere else, `path[arch]` (the columns stay those of ELF listings).
            let path = row.architecture.map { "\(row.path)[\($0)]" } ?? row.path
            let fields = [path, row.member ?? "", hex(row.value), String(row.size), String(row.letter), row.type,
                          row.binding, row.visibility, row.section, row.mangled, row.demangled ?? ""]
            for (index, field) in fields.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendCSV(field, to: &output)
            }
            output.append(UInt8(ascii: "\n"))
        }
    }

    private static func json(_ rows: [SymbolRow], into output: inout [UInt8]) {
        output += "[\n".utf8
        for (index, row) in rows.enumerated() {
            output += "  {\"path\":".utf8
            appendJSONString(row.path, to: &output)
            if let member = row.member {
                output += ",\"member\":".utf8
                appendJSONString(member, to: &output)
            }
            if let architecture = row.architecture {
                output += ",\"architecture\":".utf8
                appendJSONString(architecture, to: &output)
            }
            output += ",\"value\":\"".utf8
            output += hex(row.value).utf8
            output += "\",\"size\":\(row.size),\"letter\":\"\(row.letter)\",\"type\":\"\(row.type)\",\"binding\":\"\(row.binding)\",\"visibility\":\"\(row.visibility)\",\"section\":".utf8
            appendJSONString(row.section, to: &output)
            output += ",\"mangled\":".utf8
            appendJSONString(row.mangled, to: &output)
            output += ",\"demangled\":".utf8
            if let demangled = row.demangled { appendJSONString(demangled, to: &output) } else { output += "null".utf8 }
            output += (index == rows.count - 1 ? "}\n" : "},\n").utf8
        }
        output += "]\n".utf8
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func hex(_ value: UInt64) -> String {
        var bytes: [UInt8] = []
        appendHex(value, width: 16, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendHex(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 4, through: 0, by: -4) {
            output.append(hexDigits[Int((value >> UInt64(shift)) & 0xF)])
        }
    }

    /// Right-aligned decimal digits, written without making a string of the number.
    private static func appendDecimal(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        var digitCount = 1, power: UInt64 = 10
        while digitCount < 20, value >= power { digitCount += 1; power = power &* 10 }
        output += repeatElement(UInt8(ascii: " "), count: max(0, width - digitCount))
        output += repeatElement(UInt8(ascii: "0"), count: digitCount)
        var rest = value
        for position in stride(from: output.count - 1, through: output.count - digitCount, by: -1) {
            output[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    private static func appendPadded(_ text: String, width: Int, left: Bool = false, to output: inout [UInt8]) {
        let padding = max(0, width - text.utf8.count)
        if !left { output += repeatElement(UInt8(ascii: " "), count: padding) }
        output += text.utf8
        if left { output += repeatElement(UInt8(ascii: " "), count: padding + 1) }
    }

    private static func appendCSV(_ field: String, to output: inout [UInt8]) {
        let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard needsQuotes else {
            output += field.utf8
            return
        }
        output.append(UInt8(ascii: "\""))
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendJSONString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += "\\\"".utf8
            case UInt8(ascii: "\\"): output += "\\\\".utf8
            case 0x0A: output += "\\n".utf8
            case 0x0D: output += "\\r".utf8
            case 0x09: output += "\\t".utf8
            case 0..<0x20:
                output += "\\u00".utf8
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
