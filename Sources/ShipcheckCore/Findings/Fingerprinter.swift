import ScanEngine

/// Gives every finding a fingerprint that survives edits elsewhere in the file.
///
/// The fingerprint hashes the rule, the path and the finding's identity (or its trimmed
/// snippet), plus the occurrence index among findings with the same three — so two equal
/// previews in one file stay distinct, and inserting lines above a finding changes nothing.
/// Every fingerprint is made by one `FileFingerprints`: here for a report's findings, and by a
/// saved query straight from the bytes of each match.
package enum Fingerprinter {
    package static func assign(_ findings: inout [Finding]) {
        var files: [String: FileFingerprints] = [:]
        let order = findings.indices.sorted { Finding.readingOrder(findings[$0], findings[$1]) }
        for index in order {
            let finding = findings[index]
            let key = finding.ruleID + "\u{1F}" + finding.location.path
            var fingerprints = files[key] ?? FileFingerprints(ruleID: finding.ruleID, path: finding.location.path)
            let value = fingerprints.next(identity: finding.identity ?? normalized(finding.snippet ?? finding.message))
            files[key] = fingerprints
            findings[index].fingerprint = StableHash.hex(value)
        }
    }

    /// Whitespace runs collapse to one space so re-indentation does not change identity.
    package static func normalized(_ text: String) -> String {
        // ASCII without CR (where every byte is one Character): the same, byte by byte, with one
        // allocation — every match of a saved query is normalized.
        if let ascii = text.withByteView({ utf8 -> [UInt8]? in
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count)
            return normalizedASCII(utf8, into: &out) ? out : nil
        }) {
            return String(decoding: ascii, as: UTF8.self)
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(
            separator: " ")
    }

    /// Adds `normalized(String(lossyUTF8: line))` to a hash without making the string when the
    /// line is ASCII without CR (nearly every line of code): what a saved query's fingerprint
    /// hashes for each match, straight from the file's bytes.
    package static func appendNormalized(_ line: borrowing ByteView, to hash: inout StableHash.Accumulator) {
        if !normalizedASCII(line, into: &hash) { hash.append(normalized(line.string())) }
    }

    /// The ASCII case of `normalized`, appended to `sink`; false (and nothing appended) when
    /// `bytes` is not ASCII or holds a CR, where Characters are not bytes.
    private static func normalizedASCII<Sink: ByteSink>(_ bytes: borrowing ByteView, into sink: inout Sink) -> Bool {
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return false }
        var pendingSpace = false
        var empty = true
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A {
                pendingSpace = !empty
                continue
            }
            if pendingSpace {
                sink.append(0x20)
                pendingSpace = false
            }
            sink.append(byte)
            empty = false
        }
        return true
    }
}

/// The fingerprints of one rule's findings in one file, in reading order: the hash of the rule,
/// the path and each finding's identity, then the occurrence among the file's findings with
/// the same identity. A saved query's matches are fingerprinted from their bytes, without the
/// identity as a string (`next(line:)` after the query's `identityPrefix`, hashed once per
/// file), to the values `Fingerprinter.assign` gives the same findings.
package struct FileFingerprints {
    private let prefix: StableHash.Accumulator
    /// Per identity (its hash before the occurrence), the findings seen with it so far: a short
    /// list searched in place (most files have a few), a dictionary past that.
    private var recent: [(identity: UInt128, count: Int)] = []
    private var occurrences: [UInt128: Int] = [:]
    private static let listed = 32

    /// `identityPrefix`: what every identity of the file starts with.
    package init(ruleID: String, path: String, identityPrefix: String = "") {
        var prefix = StableHash.Accumulator()
        prefix.append(ruleID)
        prefix.append(0x1F)
        prefix.append(path)
        prefix.append(0x1F)
        prefix.append(identityPrefix)
        self.prefix = prefix
    }

    /// The next finding's fingerprint, for its identity.
    package mutating func next(identity: String) -> UInt128 {
        var hash = prefix
        hash.append(identity)
        return finish(&hash)
    }

    /// The next finding's fingerprint, for the identity made of the prefix and the normalized
    /// text of `line` (`Fingerprinter.normalized`), hashed from the bytes.
    package mutating func next(line: borrowing ByteView) -> UInt128 {
        var hash = prefix
        Fingerprinter.appendNormalized(line, to: &hash)
        return finish(&hash)
    }

    private mutating func finish(_ hash: inout StableHash.Accumulator) -> UInt128 {
        let identity = hash.value
        hash.append(0x1F)
        hash.appendDecimal(occurrence(of: identity))
        return hash.value
    }

    /// How many findings had `identity` before this one.
    private mutating func occurrence(of identity: UInt128) -> Int {
        if occurrences.isEmpty {
            if let index = recent.firstIndex(where: { $0.identity == identity }) {
                recent[index].count += 1
                return recent[index].count - 1
            }
            if recent.count < Self.listed {
                recent.append((identity, 1))
                return 0
            }
            for (listed, count) in recent { occurrences[listed] = count }
        }
        let occurrence = occurrences[identity, default: 0]
        occurrences[identity] = occurrence + 1
        return occurrence
    }
}

/// A deterministic, platform-independent 128-bit hash (two FNV-1a lanes), rendered as hex.
/// Not cryptographic: it names findings, it does not protect anything.
package enum StableHash {
    /// The hash of bytes appended piece by piece: the same value as hashing them in one go.
    package struct Accumulator: Sendable, ByteSink {
        private var lane1: UInt64 = 0xcbf2_9ce4_8422_2325
        private var lane2: UInt64 = 0x6c62_272e_07bb_0142

        package init() {}

        @inline(__always)
        package mutating func append(_ byte: UInt8) {
            lane1 = (lane1 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            lane2 = (lane2 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            lane2 = (lane2 << 7) | (lane2 >> 57)
        }

        package mutating func append(_ bytes: borrowing ByteView) {
            for index in bytes.indices { append(bytes[index]) }
        }

        package mutating func append(_ text: String) {
            for byte in text.utf8 { append(byte) }
        }

        /// The hash so far: the first lane in the high half, as `hex128` renders it.
        package var value: UInt128 { UInt128(lane1) << 64 | UInt128(lane2) }
    }

    package static func hex128(_ text: String) -> String {
        var hash = Accumulator()
        hash.append(text)
        return hex(hash.value)
    }

    /// The same hash over raw bytes (a file's contents, for `SourceScanCache`).
    package static func hex128(_ bytes: some Sequence<UInt8>) -> String {
        var hash = Accumulator()
        for byte in bytes { hash.append(byte) }
        return hex(hash.value)
    }

    package static func hex128(_ bytes: borrowing ByteView) -> String {
        var hash = Accumulator()
        hash.append(bytes)
        return hex(hash.value)
    }

    /// A hash value as `hex128` renders it: 32 lowercase hex digits.
    package static func hex(_ value: UInt128) -> String {
        var digits: [UInt8] = []
        appendHex(value, to: &digits)
        return String(decoding: digits, as: UTF8.self)
    }

    /// The same 32 digits appended to `out`.
    package static func appendHex(_ value: UInt128, to out: inout [UInt8]) {
        out.appendHex(UInt64(truncatingIfNeeded: value >> 64))
        out.appendHex(UInt64(truncatingIfNeeded: value))
    }
}
