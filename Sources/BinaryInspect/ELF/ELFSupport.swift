import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Whether this build reads ELF: the ELF backend is libelf (Debian's `libelf-dev`), built where
/// the package trait `ELF` is on and the platform has libelf (Linux; not macOS, which reads
/// Mach-O only). `shipcheck --version` reports it.
package enum ELFSupport {
    #if canImport(CLibELF)
    package static let isBuilt = true
    #else
    package static let isBuilt = false
    #endif

    /// ELF magic, for recognising ELF files and archive members.
    static let magic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]

    /// An ELF image over bytes of a mapped file (the file, or an archive member).
    static func image(_ bytes: ImageBytes, origin: ImageOrigin) throws(InputError) -> any BinaryImage {
        #if canImport(CLibELF)
        try ELFImage(image: bytes, origin: origin)
        #else
        throw origin.error("ELF support not built (this shipcheck was built without libelf): not audited")
        #endif
    }

    /// What a dynamic linker reads of an ELF file (`ELFLoadReader`), over bytes already in memory.
    package static func loadFacts(of storage: FileBytes, origin: ImageOrigin) throws(InputError) -> ELFLoadFacts {
        #if canImport(CLibELF)
        try ELFLoadReader.read(storage.whole, origin: origin)
        #else
        throw origin.error("ELF support not built (this shipcheck was built without libelf): not audited")
        #endif
    }
}
