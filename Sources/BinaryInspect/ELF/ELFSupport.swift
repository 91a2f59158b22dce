import BinaryReaderCore
import ScanEngine
import ShipcheckCore

#if canImport(CLibELF)
import CLibELF
#endif

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

    #if canImport(CLibELF)
    /// libelf over `bytes`, with the ELF header and its class, as both readers (the image and the
    /// loader's view) start: errors name the file and what libelf refused.
    static func open(_ bytes: ImageBytes, origin: ImageOrigin) throws(InputError) -> (
        handle: ELFHandle, header: GElf_Ehdr, is64Bit: Bool
    ) {
        func corrupt(_ message: String) -> InputError { origin.error("corrupt ELF file: \(message)") }
        guard ELFHandle.libraryReady else { throw origin.error("libelf is out of date: \(ELFHandle.lastError)") }
        guard let elf = ELFHandle(bytes) else { throw corrupt("cannot open: \(ELFHandle.lastError)") }
        guard elf.isELFObject else { throw corrupt("not an ELF object") }
        guard let header = elf.header else { throw corrupt("unreadable ELF header: \(ELFHandle.lastError)") }
        let elfClass = elf.elfClass
        guard elfClass == ELFCLASS32 || elfClass == ELFCLASS64 else { throw corrupt("unknown ELF class \(elfClass)") }
        return (elf, header, elfClass == ELFCLASS64)
    }
    #endif

    /// What a dynamic linker reads of an ELF file (`ELFLoadReader`), over bytes already in memory.
    package static func loadFacts(of storage: FileBytes, origin: ImageOrigin) throws(InputError) -> ELFLoadFacts {
        #if canImport(CLibELF)
        try ELFLoadReader.read(storage.whole, origin: origin)
        #else
        throw origin.error("ELF support not built (this shipcheck was built without libelf): not audited")
        #endif
    }
}
