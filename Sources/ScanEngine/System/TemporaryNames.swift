#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `mkdtemp` and `mkstemp` for Swift paths: a name from a template ending in `XXXXXX`, made
/// atomically so that no other process can take it first.
package enum TemporaryNames {
    /// Makes a directory (mode 0700); its path, or nil with `errno` saying why.
    package static func makeDirectory(_ template: String) -> String? {
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } != nil
        return made ? path(of: bytes) : nil
    }

    /// Makes and opens a file (read and write, mode 0600); its descriptor and path, or nil with
    /// `errno` saying why.
    package static func makeFile(_ template: String) -> (descriptor: Int32, path: String)? {
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        return descriptor >= 0 ? (descriptor, path(of: bytes)) : nil
    }

    private static func path(of template: [CChar]) -> String {
        String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
