import CLibELF
import ShipcheckCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One ELF file opened read-only through libelf (`ELF_C_READ_MMAP`): a single object, or a
/// static archive whose members are each an `ELFImage`.
///
/// libelf trusts the file more than we can, so every header field that points somewhere is
/// checked against the size of the file before anything reads through it (see `ELFImage`).
/// The size is also taken up front with `fstat`, so nothing maps past the end of the file
/// (which would raise SIGBUS instead of an error).
public final class ELFFile {
    /// The path as the user gave it: what errors and findings show.
    public let path: String
    public let images: [ELFImage]
    /// Archive members that could not be read: reported, while the other members are audited.
    public let memberErrors: [InputError]
    public let isArchive: Bool
    private let descriptor: Int32
    private let handle: OpaquePointer

    /// ELF magic, for recognising ELF files when scanning directories.
    public static let magic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
    /// Archive magic (`ar`), the container of static libraries.
    public static let archiveMagic = Array("!<arch>\n".utf8)

    public init(path: String) throws(InputError) {
        self.path = path
        guard elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE) else {
            throw InputError(path: path, message: "libelf is out of date: \(ELFFile.lastError())")
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: path, message: SafeFileReader.describe(errno: errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let message = SafeFileReader.describe(errno: errno)
            close(descriptor)
            throw InputError(path: path, message: message)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw InputError(path: path, message: "not a regular file (\(FileKind(mode: status.st_mode).rawValue))")
        }
        let fileSize = Int(status.st_size)
        guard fileSize > 0 else {
            close(descriptor)
            throw InputError(path: path, message: "empty file, not an ELF file")
        }
        guard let handle = elf_begin(descriptor, ELF_C_READ_MMAP, nil) else {
            let message = ELFFile.lastError()
            close(descriptor)
            throw InputError(path: path, message: "cannot open as ELF: \(message)")
        }
        // Read before any property is set: an initializer that throws half-way never runs
        // deinit, so the handle and the descriptor are released here on failure (they leaked
        // once per corrupt file, until a run over many ran out of file descriptors).
        let contents: (images: [ELFImage], memberErrors: [InputError], isArchive: Bool)
        do throws(InputError) {
            switch elf_kind(handle) {
            case ELF_K_ELF:
                contents = ([try ELFImage(handle: handle, path: path, member: nil, owned: false, containerSize: fileSize)], [], false)
            case ELF_K_AR:
                let members = try ELFFile.members(of: handle, descriptor: descriptor, path: path, fileSize: fileSize)
                contents = (members.images, members.errors, true)
            default:
                throw InputError(path: path, message: "not an ELF file or static archive")
            }
        } catch {
            elf_end(handle)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.handle = handle
        (images, memberErrors, isArchive) = contents
    }

    deinit {
        elf_end(handle)
        close(descriptor)
    }

    /// Every ELF member of an archive (the symbol index `/` and the long-name table `//`
    /// are libelf's business; members that are not ELF, such as LLVM bitcode, are skipped).
    /// A corrupt member is an error of its own; the archive's structure being corrupt fails it all.
    private static func members(of archive: OpaquePointer, descriptor: Int32, path: String,
                                fileSize: Int) throws(InputError) -> (images: [ELFImage], errors: [InputError]) {
        var images: [ELFImage] = []
        var errors: [InputError] = []
        var command = ELF_C_READ_MMAP
        _ = elf_errno()  // clear any stale error so the end-of-archive check below is about this loop
        while let member = elf_begin(descriptor, command, archive) {
            guard let header = elf_getarhdr(member), let rawName = header.pointee.ar_name else {
                let message = lastError()
                elf_end(member)
                throw InputError(path: path, message: "corrupt archive member header: \(message)")
            }
            let name = String(cString: rawName)
            let memberSize = Int(header.pointee.ar_size)
            guard memberSize <= fileSize else {
                elf_end(member)
                throw InputError(path: path, message: "archive member '\(name)' claims \(memberSize) bytes, more than the \(fileSize)-byte file")
            }
            if elf_kind(member) == ELF_K_ELF && !name.hasPrefix("/") {
                do {
                    images.append(try ELFImage(handle: member, path: path, member: name, owned: true, containerSize: memberSize))
                } catch {
                    errors.append(error)
                    command = elf_next(member)
                    elf_end(member)
                    continue
                }
            } else {
                command = elf_next(member)
                elf_end(member)
                continue
            }
            command = elf_next(images[images.count - 1].handle)
        }
        // elf_next gives ELF_C_NULL after the last member; stopping earlier means elf_begin failed.
        if command != ELF_C_NULL, let error = pendingError() { throw InputError(path: path, message: "corrupt archive: \(error)") }
        return (images, errors)
    }

    /// libelf's message for the last failure.
    static func lastError() -> String {
        guard let message = elf_errmsg(-1) else { return "unknown libelf error" }
        return String(cString: message)
    }

    /// libelf's pending error, if the last call left one (clears it).
    static func pendingError() -> String? {
        let code = elf_errno()
        guard code != 0, let message = elf_errmsg(code) else { return nil }
        return String(cString: message)
    }

    /// Whether the bytes start like an ELF file or a static archive.
    public static func looksLikeELF(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: magic) || prefix.starts(with: archiveMagic)
    }
}
