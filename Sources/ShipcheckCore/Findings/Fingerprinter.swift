/// Gives every finding a fingerprint that survives edits elsewhere in the file.
///
/// The fingerprint hashes the rule, the path and the finding's identity (or its trimmed
/// snippet), plus the occurrence index among findings with the same three — so two equal
/// previews in one file stay distinct, and inserting lines above a finding changes nothing.
public enum Fingerprinter {
    public static func assign(_ findings: inout [Finding]) {
        var occurrences: [String: Int] = [:]
        let order = findings.indices.sorted { Finding.readingOrder(findings[$0], findings[$1]) }
        for index in order {
            let finding = findings[index]
            let identity = finding.identity ?? normalized(finding.snippet ?? finding.message)
            let key = [finding.ruleID, finding.location.path, identity].joined(separator: "\u{1F}")
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            findings[index].fingerprint = StableHash.hex128(key + "\u{1F}\(occurrence)")
        }
    }

    /// Whitespace runs collapse to one space so re-indentation does not change identity.
    public static func normalized(_ text: String) -> String {
        // ASCII without CR (where every byte is one Character): the same, byte by byte, with one
        // allocation — every match of a saved query is normalized.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for byte in text.utf8 {
                if byte == 0x20 || byte == 0x09 || byte == 0x0A {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace {
                    out.append(0x20)
                    pendingSpace = false
                }
                out.append(byte)
            }
            return String(decoding: out, as: UTF8.self)
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}

/// A deterministic, platform-independent 128-bit hash (two FNV-1a lanes), rendered as hex.
/// Not cryptographic: it names findings, it does not protect anything.
public enum StableHash {
    public static func hex128(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex128(UnsafeRawBufferPointer($0)) }
    }

    /// The same hash over raw bytes (a file's contents, for `SourceScanCache`).
    public static func hex128(_ bytes: some Sequence<UInt8>) -> String {
        var lane1: UInt64 = 0xcbf2_9ce4_8422_2325
        var lane2: UInt64 = 0x6c62_272e_07bb_0142
        for byte in bytes {
            lane1 = (lane1 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            lane2 = (lane2 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            lane2 = (lane2 << 7) | (lane2 >> 57)
        }
        return String(unsafeUninitializedCapacity: 32) { out in
            for (lane, value) in [lane1, lane2].enumerated() {
                for digit in 0..<16 {
                    out[lane * 16 + digit] = hexDigits[Int((value >> (60 - 4 * UInt64(digit))) & 0xF)]
                }
            }
            return 32
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
