#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Recognises ELF files and static archives by their first bytes, without libelf.
enum ELFMagic {
    static func matches(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var prefix = [UInt8](repeating: 0, count: 8)
        let count = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 8) }
        guard count > 0 else { return false }
        return ELFFile.looksLikeELF(prefix.prefix(count))
    }
}
