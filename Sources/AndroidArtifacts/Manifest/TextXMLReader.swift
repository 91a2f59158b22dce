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
