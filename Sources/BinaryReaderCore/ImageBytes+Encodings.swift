/// Readers for the variable-width and fixed-width encodings Mach-O tables use (dyld's bind
/// opcodes and export trie, segment and section names), checked like every other read.
extension ImageBytes {
    /// The unsigned LEB128 number at `offset`, which moves past it; nil (and `offset` left where
    /// the number started) when the bytes end before its last byte or it overflows 64 bits.
    @inlinable package func uleb128(at offset: inout Int) -> UInt64? {
        var result: UInt64 = 0, shift: UInt64 = 0, position = offset
        while position >= 0, position < count {
            let byte = self[position]
            position += 1
            // The tenth byte may carry only the top bit of a 64-bit number.
            guard shift < 64, shift < 63 || byte & 0x7E == 0 else { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                offset = position
                return result
            }
            shift += 7
        }
        return nil
    }

    /// The signed LEB128 number at `offset`, which moves past it; nil (and `offset` left where
    /// the number started) when the bytes end before its last byte or it runs past 64 bits.
    @inlinable package func sleb128(at offset: inout Int) -> Int64? {
        var result: Int64 = 0, shift: Int64 = 0, position = offset
        while position >= 0, position < count {
            let byte = self[position]
            position += 1
            guard shift < 64 else { return nil }
            result |= Int64(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64, byte & 0x40 != 0 { result |= -1 << shift }
                offset = position
                return result
            }
        }
        return nil
    }

    /// The name in the `width` bytes at `offset`, NUL-padded (a name of exactly `width` bytes has
    /// no NUL: `__objc_classlist` in a 16-byte section name), or an error naming `structure`
    /// when the field leaves the view.
    package func paddedName(at offset: Int, width: Int, _ structure: @autoclosure () -> String)
        throws(ImageBytesError) -> String
    {
        try slice(offset..<offset + width, structure()).prefixBeforeNUL.string
    }
}
