import ScanEngine
import ShipcheckCore

/// An `.xcconfig` file with its `#include`s resolved: every assignment in evaluation order
/// (included files' assignments come where the `#include` is), each with its own file and line.
package struct XCConfig: Sendable, Hashable {
    package var path: String
    package var settings: [BuildSetting]
    /// Every file that took part, the top file first.
    package var files: [String]
    /// Required `#include`s whose file does not exist (often generated, such as a user's local
    /// override or CocoaPods' support files), with the including file and line. Xcode warns
    /// about them and goes on; so does the reader.
    package var missingIncludes: [BuildSetting] = []

    /// The last unconditional assignment of `key` (later assignments win in xcconfig files).
    package func setting(_ key: String) -> BuildSetting? {
        settings.last { $0.key == key && $0.condition == nil }
    }
}

/// Reads `.xcconfig` files: `KEY = value`, `KEY[sdk=…] = value`, `//` comments, and
/// `#include "file"` / `#include? "file"` relative to the including file. A missing optional
/// include is skipped; a missing required one is recorded in `missingIncludes`; a cycle is an
/// input error.
package enum XCConfigReader {
    /// No hand-written build configuration comes near this.
    package static let defaultSizeLimit = 16 * 1024 * 1024

    /// How a reader gets a file's bytes (a scan hands out the copy it already read).
    package typealias Contents = (_ path: String, _ sizeLimit: Int) throws(InputError) -> [UInt8]

    /// `sizeLimit` applies to each file, included ones too.
    package static func read(
        path: String, sizeLimit: Int = defaultSizeLimit,
        contents: Contents = { path, limit throws(InputError) in try SafeFileReader.read(path, sizeLimit: limit) }
    ) throws(InputError) -> XCConfig {
        var config = XCConfig(path: path, settings: [], files: [])
        try read(path: path, sizeLimit: sizeLimit, contents: contents, stack: [], into: &config)
        return config
    }

    private static func read(
        path: String, sizeLimit: Int, contents: Contents, stack: [String], into config: inout XCConfig
    ) throws(InputError) {
        guard stack.count < 32 else { throw InputError(path: path, message: "#include nesting deeper than 32 files") }
        let bytes = try contents(path, sizeLimit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(path: path, message: "xcconfig is not valid UTF-8")
        }
        config.files.append(path)
        let stack = stack + [XcodePath.normalize(path)]
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = stripComment(rawLine).trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#include") {
                guard let include = parseInclude(line) else {
                    throw InputError(
                        path: path, line: lineNumber, message: "malformed #include (expected #include \"file\")")
                }
                let target = XcodePath.resolve(include.file, relativeTo: XcodePath.directory(of: path))
                if stack.contains(target) {
                    throw InputError(path: path, line: lineNumber, message: "#include cycle through \(include.file)")
                }
                if FileKind.of(target) == nil {
                    if !include.optional {
                        config.missingIncludes.append(
                            BuildSetting(key: "#include", value: .string(include.file), file: path, line: lineNumber))
                    }
                    continue
                }
                try read(path: target, sizeLimit: sizeLimit, contents: contents, stack: stack, into: &config)
                continue
            }
            guard let equals = assignmentIndex(in: line) else { continue }
            let rawKey = line[..<equals].trimmingWhitespace()
            guard !rawKey.isEmpty, !rawKey.contains(" ") else { continue }
            let (key, condition) = BuildSetting.splitCondition(rawKey)
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            // Xcode takes `SDKROOT = macosx;` (a pbxproj habit) as `macosx`.
            if value.hasSuffix(";") { value = String(value.dropLast()).trimmingWhitespace() }
            let indent = rawLine.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
            config.settings.append(
                BuildSetting(
                    key: key, condition: condition, value: .string(value), file: path, line: lineNumber,
                    column: indent + 1))
        }
    }

    /// The `=` that assigns: `KEY[sdk=*][config=Release] = value` has others inside its conditions.
    static func assignmentIndex(in line: String) -> String.Index? {
        var depth = 0
        for index in line.indices {
            switch line[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case "=" where depth == 0: return index
            default: break
            }
        }
        return nil
    }

    /// `#include "a.xcconfig"` or `#include? "a.xcconfig"`.
    static func parseInclude(_ line: String) -> (file: String, optional: Bool)? {
        var rest = line.dropFirst("#include".count)
        let optional = rest.hasPrefix("?")
        if optional { rest = rest.dropFirst() }
        let trimmed = rest.trimmingWhitespace()
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return nil }
        return (String(trimmed.dropFirst().dropLast()), optional)
    }

    /// Drops a `//` comment (xcconfig has no string literals, so `//` always starts one).
    static func stripComment(_ line: Substring) -> Substring {
        var previousSlash = false
        for index in line.indices {
            if line[index] == "/" {
                if previousSlash { return line[..<line.index(before: index)] }
                previousSlash = true
            } else {
                previousSlash = false
            }
        }
        return line
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
        return String(slice)
    }
}
