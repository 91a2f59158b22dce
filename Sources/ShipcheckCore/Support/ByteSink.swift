/// Where bytes go one at a time: an array, or a running hash (`StableHash.Accumulator`) that
/// takes them without the array — what per-match work writes through, instead of strings.
public protocol ByteSink {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteSink where Element == UInt8 {}

extension ByteSink {
    /// The decimal digits of `value` (a minus sign first when negative), without making a string.
    @inlinable
    public mutating func appendDecimal(_ value: some BinaryInteger) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        var divisor: UInt64 = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        var rest = magnitude
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Sixteen lower-case hex digits of `value`, leading zeros kept.
    @inlinable
    public mutating func appendHex(_ value: UInt64) {
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
            append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit)
        }
    }
}
