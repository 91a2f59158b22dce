import Foundation
import SwiftProtobuf

/// aapt2's protobuf XML (`aapt.pb.XmlNode`), as an App Bundle keeps each module's
/// `manifest/AndroidManifest.xml`, and bundletool's `BundleConfig.pb`, decoded with
/// SwiftProtobuf from the declarations in `Protos/android_bundle.proto`.
package enum ProtoXMLReader {
    /// Protobuf messages nest without a limit of their own; a manifest's elements nest a few deep.
    static let maximumDepth = 64

    /// The root element.
    package static func read(_ bytes: [UInt8]) throws(ManifestError) -> ManifestElement {
        let node: Shipcheck_Android_XmlNode
        do {
            var options = BinaryDecodingOptions()
            options.messageDepthLimit = maximumDepth * 2 + 8
            node = try Shipcheck_Android_XmlNode(serializedBytes: bytes, options: options)
        } catch {
            throw ManifestError("not a protobuf XML document (\(error))")
        }
        guard case .element(let root)? = node.node else { throw ManifestError("protobuf XML holds no root element") }
        return element(root)
    }

    private static func element(_ element: Shipcheck_Android_XmlElement) -> ManifestElement {
        ManifestElement(
            name: element.name,
            attributes: element.attribute.map { attribute in
                ManifestAttribute(
                    namespace: attribute.namespaceUri.isEmpty ? nil : attribute.namespaceUri, name: attribute.name,
                    resourceID: attribute.resourceID == 0 ? nil : attribute.resourceID, value: value(of: attribute))
            },
            children: element.child.compactMap { node in
                guard case .element(let child)? = node.node else { return nil }
                return self.element(child)
            })
    }

    /// The compiled value where aapt2 compiled one, else the text as written.
    private static func value(of attribute: Shipcheck_Android_XmlAttribute) -> ManifestValue {
        guard attribute.hasCompiledItem else { return .string(attribute.value) }
        switch attribute.compiledItem.value {
        case .prim(let primitive)?:
            switch primitive.oneofValue {
            case .intDecimalValue(let value)?: return .integer(Int64(value))
            case .intHexadecimalValue(let value)?: return .integer(Int64(value))
            case .booleanValue(let value)?: return .boolean(value != 0)
            case nil: return .string(attribute.value)
            }
        case .ref(let reference)?: return .reference(reference.id)
        case .str(let string)?: return .string(string.value)
        case .rawStr(let string)?: return .string(string.value)
        case nil: return .string(attribute.value)
        }
    }

    /// `BundleConfig.pb`.
    package static func bundleConfig(_ bytes: [UInt8]) throws(ManifestError) -> AndroidArtifact.BundleConfig {
        let message: Shipcheck_Android_BundleConfig
        do {
            message = try Shipcheck_Android_BundleConfig(serializedBytes: bytes)
        } catch {
            throw ManifestError("not a bundletool BundleConfig (\(error))")
        }
        var config = AndroidArtifact.BundleConfig()
        config.bundletoolVersion = message.bundletool.version.isEmpty ? nil : message.bundletool.version
        let libraries = message.optimizations.uncompressNativeLibraries
        config.uncompressNativeLibraries = libraries.enabled
        switch libraries.alignment {
        case .pageAlignment4K: config.nativeLibraryAlignment = 4096
        case .pageAlignment16K: config.nativeLibraryAlignment = 16384
        case .pageAlignment64K: config.nativeLibraryAlignment = 65536
        case .unspecified, .UNRECOGNIZED: config.nativeLibraryAlignment = nil
        }
        return config
    }
}
