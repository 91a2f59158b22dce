import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// The slices of a universal ("fat") file: `fat_header` then `fat_arch` (`FAT_MAGIC`) or
/// `fat_arch_64` (`FAT_MAGIC_64`) entries, big-endian. Each slice must lie inside the file and no
/// two may overlap; a bad table fails the whole file (its slices cannot be trusted), while a
/// slice of an unsupported CPU is an error for that slice only.
enum UniversalFile {
    struct Slice {
        var cpu: MachOCPU
        /// Where the slice lies in the file, and its bytes.
        var range: Range<Int>
        var bytes: ImageBytes
    }

    /// More slices than any real universal file has: `CAFEBABE` is also the magic of Java class
    /// files, whose version fields read as a count of 45 or more.
    static let maximumSlices = 32

    static func isUniversal(_ prefix: some Collection<UInt8>) -> Bool {
        let bytes = Array(prefix.prefix(8))
        guard bytes.count == 8, bytes[0] == 0xCA, bytes[1] == 0xFE, bytes[2] == 0xBA,
            bytes[3] == 0xBE || bytes[3] == 0xBF
        else { return false }
        let count = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        return count > 0 && count <= maximumSlices
    }

    static func slices(of bytes: ImageBytes, origin: ImageOrigin) throws(InputError) -> [Slice] {
        func corrupt(_ message: String) -> InputError { origin.error("corrupt universal file: \(message)") }
        let magic: UInt32, count: UInt32
        do {
            magic = try bytes.load(UInt32.self, at: 0, .big, "fat_header")
            count = try bytes.load(UInt32.self, at: 4, .big, "fat_header")
        } catch { throw corrupt(error.message) }
        let is64 = magic == MachO.fatMagic64
        let entrySize = is64 ? 32 : 20
        guard count > 0, count <= maximumSlices else {
            throw corrupt("\(count) slices (a Java class file?); universal files hold 1 to \(maximumSlices)")
        }
        guard 8 + Int(count) * entrySize <= bytes.count else {
            throw corrupt("the table of \(count) slices runs past the end of the \(bytes.count)-byte file")
        }
        var slices: [Slice] = []
        for index in 0..<Int(count) {
            let at = 8 + index * entrySize
            // A field of entry `index` (`fat_arch` or `fat_arch_64`), 8 or 4 bytes wide.
            func field(_ offset: Int, wide: Bool = false) throws(InputError) -> UInt64 {
                do {
                    let name = is64 ? "fat_arch_64 \(index)" : "fat_arch \(index)"
                    return wide
                        ? try bytes.load(UInt64.self, at: at + offset, .big, name)
                        : UInt64(try bytes.load(UInt32.self, at: at + offset, .big, name))
                } catch { throw corrupt(error.message) }
            }
            let cpu = MachOCPU(type: UInt32(try field(0)), subtype: UInt32(try field(4)))
            let offset = is64 ? try field(8, wide: true) : try field(8)
            let size = is64 ? try field(16, wide: true) : try field(12)
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, size > 0, offset >= UInt64(8 + Int(count) * entrySize),
                let sliceBytes = bytes.slice(Int(clamping: offset)..<Int(clamping: end))
            else {
                throw corrupt(
                    "slice \(index) (\(cpu.name), offset \(offset), \(size) bytes) lies outside the \(bytes.count)-byte file"
                )
            }
            let range = Int(offset)..<Int(end)
            if let other = slices.first(where: { $0.range.overlaps(range) }) {
                throw corrupt("slice \(index) (\(cpu.name)) overlaps the \(other.cpu.name) slice")
            }
            slices.append(Slice(cpu: cpu, range: range, bytes: sliceBytes))
        }
        return slices
    }
}
