/// Where bytes go one at a time: an array, or a running hash (`StableHash.Accumulator`) that
/// takes them without the array — what per-match work writes through, instead of strings.
package protocol ByteSink {
    mutating func append(_ byte: UInt8)
    /// Several bytes at once (by default, one at a time).
    mutating func append(bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    package mutating func append(bytes: UnsafeRawBufferPointer) {
        for byte in bytes { append(byte) }
    }

    /// The bytes of a view (a line of a file, for a report or a state file).
    package mutating func append(bytes view: borrowing ByteView) { append(bytes: view.base) }

    /// The bytes of `range` of a view.
    package mutating func append(bytes view: borrowing ByteView, _ range: Range<Int>) {
        append(bytes: view.base[checked: range])
    }
}

extension Array: ByteSink where Element == UInt8 {
    package mutating func append(bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

extension ByteSink {
    /// The decimal digits of `value` (a minus sign first when negative), without making a string.
    /// Concrete integer types, not `some BinaryInteger`: per-match report and state lines call
    /// this from other modules, where a generic one ran unspecialised, through `BinaryInteger`'s
    /// witnesses (`ByteSinkTests` and the queries bench's 20-query row).
    @inlinable
    package mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    @inlinable
    package mutating func appendDecimal(_ value: Int64) {
        appendDecimal(Int(value))
    }

    @inlinable
    package mutating func appendDecimal(_ value: UInt) {
        appendDecimal(UInt64(value))
    }

    @inlinable
    package mutating func appendDecimal(_ value: UInt64) {
        // Last digit first into room for the longest UInt64 (20 digits): a division by the
        // constant 10 is a multiplication, a division by a running power of ten is not (a
        // report writes two numbers per match).
        var rest = value
        var room: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &room) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            append(bytes: UnsafeRawBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// Sixteen lower-case hex digits of `value`, leading zeros kept.
    @inlinable
    package mutating func appendHex(_ value: UInt64) {
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
            append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit)
        }
    }
}
