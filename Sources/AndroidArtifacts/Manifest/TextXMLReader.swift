import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A manifest as text (an AAR's `AndroidManifest.xml`, a module's source manifest), parsed with
/// Foundation's `XMLParser` (libxml2) with namespaces resolved, so `android:debuggable` is found
/// under whatever prefix the file binds Android's namespace to. External entities are never
/// loaded.
package enum TextXMLReader {
    package static func read(_ bytes: [UInt8]) throws(ManifestError) -> ManifestElement {
        if !isConvertedByLibxml2(bytes), let offset = invalidUTF8Offset(bytes) {
            throw ManifestError("not well-formed XML: byte \(offset) is not UTF-8")
        }
        if let offset = processingInstructionWithoutData(bytes) {
            throw ManifestError("not well-formed XML: a processing instruction without data at byte \(offset)")
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let line = parser.lineNumber
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw ManifestError("not well-formed XML (line \(line)): \(reason)")
        }
        return root
    }

    /// Whether libxml2 converts the document to UTF-8 itself: UTF-16 (a byte-order mark) or a
    /// declared single-byte encoding whose every byte maps to a character. Everything else
    /// reaches Foundation's `XMLParser` as it is, and it traps on a name that is not UTF-8
    /// (bytes 0xFF in a tag), so it is checked first: a declaration naming an encoding libxml2
    /// does not know (the fuzzer's `encoding="u\u{FF}…tf-8"`) was parsed as raw bytes.
    static func isConvertedByLibxml2(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let close = head.range(of: "?>"),
            let encoding = head[..<close.lowerBound].range(of: "encoding=")
        else { return false }
        let value = head[encoding.upperBound..<close.lowerBound].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        return ["iso-8859-1", "latin1"].contains(value.lowercased())
    }

    /// Where the first processing instruction with a target and no data (`<?xm?>`) starts, or nil:
    /// libxml2 hands its data to Foundation's `XMLParser` as a null pointer, and Foundation reads
    /// it with `strlen` (swift-corelibs-foundation, found by fuzzing). No manifest holds one. A
    /// UTF-16 document (a byte-order mark) is looked at as the text libxml2 will see.
    static func processingInstructionWithoutData(_ bytes: [UInt8]) -> Int? {
        var text = bytes
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            text = Array((String(data: Data(bytes), encoding: .utf16) ?? "").utf8)
        }
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        var index = 0
        while index + 1 < text.count {
            defer { index += 1 }
            guard text[index] == UInt8(ascii: "<"), text[index + 1] == UInt8(ascii: "?") else { continue }
            var end = index + 2
            while end < text.count, !blank.contains(text[end]), text[end] != UInt8(ascii: "?") { end += 1 }
            while end < text.count, blank.contains(text[end]) { end += 1 }
            if end + 1 < text.count, text[end] == UInt8(ascii: "?"), text[end + 1] == UInt8(ascii: ">") { return index }
        }
        return nil
    }

    /// Where the first byte that does not decode as UTF-8 is, or nil.
    static func invalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [ManifestElement] = []
        var root: ManifestElement?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            guard stack.count < BinaryXMLReader.maximumDepth else {
                parser.abortParsing()
                return
            }
            var element = ManifestElement(name: elementName)
            // With namespaces processed, attribute keys keep their prefix (`android:name`): the
            // prefix is resolved against the declarations in scope by the parser's own map.
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
                let (prefix, name) = parts.count == 2 ? (parts[0], parts[1]) : ("", parts[0])
                let namespace = prefix.isEmpty ? nil : namespaces[prefix] ?? prefix
                element.attributes.append(ManifestAttribute(namespace: namespace, name: name, value: .string(value)))
            }
            stack.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        private var namespaces: [String: String] = [:]

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            namespaces[prefix] = namespaceURI
        }
    }
}
