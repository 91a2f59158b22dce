import BinaryReaderCore
import ScanEngine
import ShipcheckCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A binary opened by its first bytes: an ELF file, a thin Mach-O file, a universal file (every
/// slice), or a static archive (every member, ELF or Mach-O) — the one entry point from a path
/// (or from bytes already in memory) to images.
///
/// Parts that cannot be read (a corrupt archive member, a slice of an unsupported CPU, a member
/// that is not an object) are `errors`, named `path[arch](member)`; the others are still
/// `images`. A file that cannot be read at all throws.
package final class BinaryFile {
    package let path: String
    /// How many bytes the file holds (a universal file's or an archive's, every part together).
    package let size: UInt64
    package let images: [any BinaryImage]
    package let errors: [InputError]
    /// Slices of a universal file not read because shipcheck does not decode their CPU (32-bit
    /// `i386`, `armv7`, `arm64_32`): each is also one of `errors`; the pre-flight model still
    /// lists them by architecture.
    package let unreadArchitectures: [String]

    /// Opens a file. `architecture` keeps only that slice of universal files (`--arch arm64`);
    /// a thin Mach-O file of another architecture, or a universal one without it, is an error.
    package convenience init(path: String, architecture: String? = nil) throws(InputError) {
        try self.init(storage: FileBytes.map(path: path), path: path, architecture: architecture)
    }

    /// Reads bytes that are already in memory (an entry of a zip), named `path` in messages.
    package convenience init(bytes: some Collection<UInt8>, path: String, architecture: String? = nil)
        throws(InputError)
    {
        guard !bytes.isEmpty else { throw InputError(path: path, message: "empty file, not a binary") }
        try self.init(storage: FileBytes(copying: bytes), path: path, architecture: architecture)
    }

    package init(storage: FileBytes, path: String, architecture: String? = nil) throws(InputError) {
        self.path = path
        size = UInt64(storage.count)
        var opener = Opener(architecture: architecture)
        try opener.open(
            storage.whole, origin: ImageOrigin(path: path), allowArchive: true, allowUniversal: true)
        images = opener.images
        errors = opener.errors
        unreadArchitectures = opener.unreadArchitectures
    }

    /// Whether a file's first bytes look like something `BinaryFile` reads (directory walks pick
    /// binaries this way and skip everything else).
    package static func looksLikeBinary(_ prefix: some Collection<UInt8>) -> Bool {
        let bytes = Array(prefix.prefix(8))
        // Mach-O, 64 and 32 bits.
        return bytes.starts(with: ELFSupport.magic) || bytes.starts(with: StaticArchive.magic)
            || bytes.starts(with: [0xCF, 0xFA, 0xED, 0xFE]) || bytes.starts(with: [0xCE, 0xFA, 0xED, 0xFE])
            || UniversalFile.isUniversal(bytes)
    }
}

/// Dispatches bytes to the reader their magic names, collecting images and per-part errors.
private struct Opener {
    let architecture: String?
    var images: [any BinaryImage] = []
    var errors: [InputError] = []
    var unreadArchitectures: [String] = []

    init(architecture: String?) {
        self.architecture = architecture
    }

    /// Throws when the whole input is unreadable; parts' problems go to `errors`.
    mutating func open(_ image: ImageBytes, origin: ImageOrigin, allowArchive: Bool, allowUniversal: Bool)
        throws(InputError)
    {
        let magic = image.prefix(8).array
        let magic32 = image.uint32(at: 0, .little)
        if magic.starts(with: ELFSupport.magic) {
            images.append(try ELFSupport.image(image, origin: origin))
        } else if magic32 == MachO.magic64 || magic32 == MachO.magic32 {
            if let architecture, origin.architecture == nil, let cpu = MachOCPU(header: image),
                cpu.name != architecture
            {
                throw origin.error("is \(cpu.name), not \(architecture) (--arch)")
            }
            images.append(try MachOImage(image: image, origin: origin))
        } else if magic32 == MachO.magic64.byteSwapped || magic32 == MachO.magic32.byteSwapped {
            throw origin.error("big-endian Mach-O file (PowerPC): not supported (only ARM and Intel code)")
        } else if allowUniversal, let fatMagic = image.uint32(at: 0, .big),
            fatMagic == MachO.fatMagic || fatMagic == MachO.fatMagic64
        {
            try openUniversal(image, origin: origin)
        } else if allowArchive, magic.starts(with: StaticArchive.magic) {
            openArchive(image, origin: origin)
        } else if magic.starts(with: StaticArchive.thinMagic) {
            throw origin.error("thin archive (its members are stored elsewhere): not supported")
        } else if origin.member != nil {
            throw origin.error(
                magic.starts(with: [0x42, 0x43, 0xC0, 0xDE]) || magic.starts(with: [0xDE, 0xC0, 0x17, 0x0B])
                    ? "LLVM bitcode, not an ELF or Mach-O object (built with LTO?): not audited"
                    : "not an ELF or Mach-O object: not audited")
        } else {
            throw origin.error("not an ELF file, Mach-O file or static archive")
        }
    }

    private mutating func openUniversal(_ image: ImageBytes, origin: ImageOrigin) throws(InputError) {
        let slices = try UniversalFile.slices(of: image, origin: origin)
        let chosen = architecture.map { name in slices.filter { $0.cpu.name == name } } ?? slices
        guard !chosen.isEmpty else {
            throw origin.error(
                "has no \(architecture ?? "") slice (--arch); it holds \(slices.map(\.cpu.name).joined(separator: ", "))"
            )
        }
        for slice in chosen {
            let sliceOrigin = origin.inSlice(slice.cpu.name)
            let sliceImage = slice.bytes
            do throws(InputError) {
                guard slice.cpu.isSupported else {
                    unreadArchitectures.append(slice.cpu.name)
                    throw sliceOrigin.error(slice.cpu.unsupportedReason)
                }
                // A Mach-O slice's own header names its CPU: the table must agree, or every
                // finding would name the wrong architecture.
                if let held = MachOCPU(header: sliceImage), held.type != slice.cpu.type {
                    throw sliceOrigin.error(
                        "corrupt universal file: the table lists \(slice.cpu.name) code, the slice holds \(held.name)")
                }
                try open(sliceImage, origin: sliceOrigin, allowArchive: true, allowUniversal: false)
            } catch {
                errors.append(error)
            }
        }
    }

    private mutating func openArchive(_ image: ImageBytes, origin: ImageOrigin) {
        let (members, archiveErrors) = StaticArchive.members(of: image, origin: origin)
        for member in members {
            let memberOrigin = origin.inMember(member.name)
            do throws(InputError) {
                guard !member.bytes.isEmpty else { throw memberOrigin.error("empty archive member, not an object") }
                try open(member.bytes, origin: memberOrigin, allowArchive: false, allowUniversal: false)
            } catch {
                errors.append(error)
            }
        }
        errors += archiveErrors
    }
}
