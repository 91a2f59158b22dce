import AndroidArtifacts
import Foundation
import ShipcheckTestSupport
import SwiftProtobuf

/// An `AndroidManifest` as the element tree a build tool compiles and in each encoding an
/// artifact keeps it: Android binary XML (an APK, with the string pool, the resource map of the
/// framework's attribute IDs and typed values, as aapt2 links it), aapt2's protobuf `XmlNode`
/// (an App Bundle's module), text (an AAR).
enum ManifestWriter {
    /// The framework's resource IDs of the android: attributes written (its `public.xml`), kept
    /// here apart from the readers' own table: the bytes must say what aapt2 writes, not what
    /// the readers expect.
    private static let frameworkAttributes: [String: UInt32] = [
        "name": 0x0101_0003, "debuggable": 0x0101_000F, "minSdkVersion": 0x0101_020C, "versionCode": 0x0101_021B,
        "versionName": 0x0101_021C, "targetSdkVersion": 0x0101_0270, "testOnly": 0x0101_0272,
        "extractNativeLibs": 0x0101_04EA, "exported": 0x0101_0010, "authorities": 0x0101_0018,
        "foregroundServiceType": 0x0101_0599, "scheme": 0x0101_0027
    ]
    static let androidNamespace = "http://schemas.android.com/apk/res/android"

    /// An android: attribute, with the framework's resource ID of its name.
    static func android(_ name: String, _ value: ManifestValue) -> ManifestAttribute {
        ManifestAttribute(namespace: androidNamespace, name: name, resourceID: frameworkAttributes[name], value: value)
    }

    /// `<manifest>` with `<uses-sdk>`, a required `<uses-feature>` naming the form factor, the
    /// permissions and queries, and `<application>` with its components: each fact the model
    /// holds as one attribute, typed as aapt2 types it (`compiled`) or as text.
    static func element(_ manifest: AndroidManifest, compiled: Bool) -> ManifestElement {
        var root = ManifestElement(name: "manifest")
        if let package = manifest.package {
            root.attributes.append(ManifestAttribute(name: "package", value: .string(package)))
        }
        if let split = manifest.split {
            root.attributes.append(ManifestAttribute(name: "split", value: .string(split)))
        }
        if let code = manifest.versionCode { root.attributes.append(android("versionCode", .integer(code))) }
        if let name = manifest.versionName { root.attributes.append(android("versionName", .string(name))) }
        var usesSdk = ManifestElement(name: "uses-sdk")
        if let minSdk = manifest.minSdk { usesSdk.attributes.append(android("minSdkVersion", .integer(Int64(minSdk)))) }
        if let target = manifest.targetSdkText {
            usesSdk.attributes.append(
                android("targetSdkVersion", Int64(target).map(ManifestValue.integer) ?? .string(target)))
        }
        if !usesSdk.attributes.isEmpty { root.children.append(usesSdk) }
        let features: [AndroidManifest.FormFactor: String] = [
            .wear: "android.hardware.type.watch", .television: "android.software.leanback",
            .automotive: "android.hardware.type.automotive"
        ]
        if let feature = features[manifest.formFactor] {
            root.children.append(ManifestElement(name: "uses-feature", attributes: [android("name", .string(feature))]))
        }
        root.children += permissionElements(manifest)
        if let queries = queriesElement(manifest.queries) { root.children.append(queries) }
        var application = ManifestElement(name: "application")
        if let debuggable = manifest.debuggable {
            application.attributes.append(android("debuggable", .boolean(debuggable)))
        }
        if let testOnly = manifest.testOnly { application.attributes.append(android("testOnly", .boolean(testOnly))) }
        if let extract = manifest.extractNativeLibs {
            application.attributes.append(android("extractNativeLibs", .boolean(extract)))
        }
        application.children = manifest.components.map { componentElement($0, compiled: compiled) }
        root.children.append(application)
        return root
    }

    // MARK: Text

    static func text(_ manifest: AndroidManifest) -> [UInt8] {
        func write(_ element: ManifestElement, depth: Int) -> String {
            let indent = String(repeating: "  ", count: depth)
            var line = "\(indent)<\(element.name)"
            if depth == 0 { line += " xmlns:android=\"\(Self.androidNamespace)\"" }
            for attribute in element.attributes {
                let prefix = attribute.namespace == nil ? "" : "android:"
                line += " \(prefix)\(attribute.name)=\"\(escaped(attribute.value.text))\""
            }
            guard !element.children.isEmpty else { return line + "/>\n" }
            return line + ">\n" + element.children.map { write($0, depth: depth + 1) }.joined()
                + "\(indent)</\(element.name)>\n"
        }
        return Array(
            ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" + write(element(manifest, compiled: false), depth: 0)).utf8)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }

    // MARK: Protobuf

    static func protobuf(_ manifest: AndroidManifest) throws -> [UInt8] {
        func node(_ element: ManifestElement) -> Shipcheck_Android_XmlNode {
            var xml = Shipcheck_Android_XmlElement()
            xml.name = element.name
            xml.attribute = element.attributes.map { attribute in
                var proto = Shipcheck_Android_XmlAttribute()
                proto.namespaceUri = attribute.namespace ?? ""
                proto.name = attribute.name
                proto.resourceID = attribute.resourceID ?? 0
                proto.value = attribute.value.text
                var primitive = Shipcheck_Android_Primitive()
                switch attribute.value {
                case .integer(let value) where attribute.name == "foregroundServiceType":
                    primitive.intHexadecimalValue = UInt32(truncatingIfNeeded: value)
                case .integer(let value): primitive.intDecimalValue = Int32(truncatingIfNeeded: value)
                case .boolean(let value): primitive.booleanValue = value ? 1 : 0
                case .reference(let id): proto.compiledItem.ref.id = id
                case .string: break  // aapt2 keeps a plain string as the text alone
                }
                if primitive.oneofValue != nil { proto.compiledItem.prim = primitive }
                return proto
            }
            xml.child = element.children.map(node)
            var node = Shipcheck_Android_XmlNode()
            node.element = xml
            return node
        }
        return try node(element(manifest, compiled: true)).serializedBytes()
    }

    // MARK: Binary XML

    /// `ResXMLTree`: the string pool (UTF-16, the android: attribute names first so the resource
    /// map lines up with them), the resource map, the namespace, then each element's start
    /// chunk with its typed attributes and its end chunk.
    static func binary(_ manifest: AndroidManifest) -> [UInt8] {
        let root = element(manifest, compiled: true)
        var pool: [String] = []
        var resourceIDs: [UInt32] = []
        func index(_ string: String) -> UInt32 {
            if let found = pool.firstIndex(of: string) { return UInt32(found) }
            pool.append(string)
            return UInt32(pool.count - 1)
        }
        func collectAttributeNames(_ element: ManifestElement) {
            for attribute in element.attributes where attribute.resourceID != nil && !pool.contains(attribute.name) {
                pool.append(attribute.name)
                resourceIDs.append(attribute.resourceID ?? 0)
            }
            element.children.forEach(collectAttributeNames)
        }
        collectAttributeNames(root)
        let namespace = index(Self.androidNamespace), prefix = index("android")

        var body = ByteWriter()
        func node(_ type: UInt16, _ fields: [UInt32], attributes: [ManifestAttribute] = []) {
            let start = body.count
            body.u16(type)
            body.u16(16)
            body.u32(0)
            body.u32(1)
            body.u32(UInt32.max)
            for field in fields { body.u32(field) }
            if type == 0x0102 {
                for field in [20, 20, attributes.count, 0, 0, 0] { body.u16(UInt16(field)) }
                for attribute in attributes {
                    body.u32(attribute.namespace == nil ? UInt32.max : namespace)
                    body.u32(index(attribute.name))
                    let (type, data): (UInt8, UInt32)
                    switch attribute.value {
                    case .string(let text): (type, data) = (0x03, index(text))
                    // A flag set is TYPE_INT_HEX, as aapt compiles foregroundServiceType.
                    case .integer(let value) where attribute.name == "foregroundServiceType":
                        (type, data) = (0x11, UInt32(truncatingIfNeeded: value))
                    case .integer(let value): (type, data) = (0x10, UInt32(truncatingIfNeeded: value))
                    case .boolean(let value): (type, data) = (0x12, value ? UInt32.max : 0)
                    case .reference(let id): (type, data) = (0x01, id)
                    }
                    body.u32(type == 0x03 ? data : UInt32.max)
                    body.u16(8)
                    body.u8(0)
                    body.u8(type)
                    body.u32(data)
                }
            }
            body.patch32(UInt32(body.count - start), at: start + 4)
        }
        func write(_ element: ManifestElement) {
            let name = index(element.name)
            node(0x0102, [UInt32.max, name], attributes: element.attributes)
            element.children.forEach(write)
            node(0x0103, [UInt32.max, name])
        }
        node(0x0100, [prefix, namespace])
        write(root)
        node(0x0101, [prefix, namespace])

        var strings = ByteWriter()
        var offsets: [UInt32] = []
        for string in pool {
            offsets.append(UInt32(strings.count))
            let units = Array(string.utf16)
            strings.u16(UInt16(units.count))
            for unit in units { strings.u16(unit) }
            strings.u16(0)
        }
        strings.pad(to: 4)
        var out = ByteWriter()
        out.u16(0x0003)
        out.u16(8)
        out.u32(0)
        out.u16(0x0001)
        out.u16(28)
        out.u32(UInt32(28 + pool.count * 4 + strings.count))
        for field in [pool.count, 0, 0, 28 + pool.count * 4, 0] { out.u32(UInt32(field)) }
        for offset in offsets { out.u32(offset) }
        out.append(strings.bytes)
        out.u16(0x0180)
        out.u16(8)
        out.u32(UInt32(8 + resourceIDs.count * 4))
        for id in resourceIDs { out.u32(id) }
        out.append(body.bytes)
        out.patch32(UInt32(out.count), at: 4)
        return out.bytes
    }
}
