import Foundation
import ShipcheckTestSupport

/// The code signature `LC_CODE_SIGNATURE` points at: a SuperBlob (big-endian) whose index lists
/// the entitlements blob (slot 5, magic 0xfade7171, an XML property list) when there are
/// entitlements, and nothing else the readers look at.
enum CodeSignatureWriter {
    static func superBlob(entitlements: [String: String]?) -> [UInt8] {
        var blobs: [(slot: UInt32, bytes: [UInt8])] = []
        if let entitlements {
            let plist = PropertyListWriter.xml(PropertyListWriter.entitlementValues(entitlements))
            var blob = ByteWriter()
            blob.big32(0xFADE_7171)
            blob.big32(UInt32(8 + plist.count))
            blob.bytes += plist
            blobs.append((5, blob.bytes))
        }
        var signature = ByteWriter()
        let indexEnd = 12 + 8 * blobs.count
        signature.big32(0xFADE_0CC0)
        signature.big32(UInt32(indexEnd + blobs.reduce(0) { $0 + $1.bytes.count }))
        signature.big32(UInt32(blobs.count))
        var offset = indexEnd
        for blob in blobs {
            signature.big32(blob.slot)
            signature.big32(UInt32(offset))
            offset += blob.bytes.count
        }
        for blob in blobs { signature.bytes += blob.bytes }
        return signature.bytes
    }
}

/// A universal file: `fat_header` and `fat_arch` entries (big-endian), each slice 16 KiB aligned.
enum UniversalWriter {
    static func file(_ slices: [(architecture: String, bytes: [UInt8])]) throws(ExampleWriteError) -> [UInt8] {
        let alignment = 1 << 14
        var file = ByteWriter()
        file.big32(0xCAFE_BABE)
        file.big32(UInt32(slices.count))
        var offset = alignment
        for slice in slices {
            let cpu = try MachOSliceWriter.cpu(slice.architecture)
            for value in [cpu.type, cpu.subtype, UInt32(offset), UInt32(slice.bytes.count), 14] { file.big32(value) }
            offset = ByteWriter.rounded(offset + slice.bytes.count, to: alignment)
        }
        for slice in slices {
            file.pad(to: alignment)
            file.bytes += slice.bytes
        }
        return file.bytes
    }
}

/// A BSD static archive (`ar`, as libtool writes it): `!<arch>\n`, then each member's 60-byte
/// header with a `#1/N` name whose N bytes start the member's data (padded so objects start
/// 8-byte aligned).
enum ArchiveWriter {
    static func archive(_ members: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var archive = Array("!<arch>\n".utf8)
        for member in members {
            var name = Array(member.name.utf8)
            while (60 + name.count) % 8 != 0 { name.append(0) }
            var object = member.bytes
            while object.count % 8 != 0 { object.append(0) }
            func field(_ text: String, _ width: Int) -> [UInt8] {
                Array(text.utf8) + [UInt8](repeating: 0x20, count: width - text.utf8.count)
            }
            archive += field("#1/\(name.count)", 16) + field("0", 12) + field("0", 6) + field("0", 6)
            archive += field("100644", 8) + field(String(name.count + object.count), 10) + Array("`\n".utf8)
            archive += name + object
        }
        return archive
    }
}

/// A provisioning profile as Apple ships it: a CMS SignedData envelope (RFC 5652) whose
/// encapsulated content is the profile's XML property list. The signature itself is left out
/// (no signer infos): the reader does not verify it.
enum ProfileWriter {
    static func profile(_ plist: [String: Any]) -> [UInt8] {
        let content = PropertyListWriter.xml(plist)
        let signedData = DER.sequence(
            DER.integer(1),
            DER.set(DER.sequence(DER.objectIdentifier([2, 16, 840, 1, 101, 3, 4, 2, 1]))),
            DER.sequence(DER.objectIdentifier([1, 2, 840, 113_549, 1, 7, 1]), DER.explicit0(DER.octetString(content))),
            DER.set())
        return DER.sequence(DER.objectIdentifier([1, 2, 840, 113_549, 1, 7, 2]), DER.explicit0(signedData))
    }
}

/// Property lists through Foundation, as Xcode writes them (binary Info.plists, XML elsewhere).
enum PropertyListWriter {
    static func xml(_ value: Any) -> [UInt8] { serialize(value, .xml) }
    static func binary(_ value: Any) -> [UInt8] { serialize(value, .binary) }

    private static func serialize(_ value: Any, _ format: PropertyListSerialization.PropertyListFormat) -> [UInt8] {
        Array(try! PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0))
    }

    /// Entitlement values as a signature carries them: `true` / `false` booleans, other text strings.
    static func entitlementValues(_ values: [String: String]) -> [String: Any] {
        values.mapValues { value -> Any in
            switch value {
            case "true": true
            case "false": false
            default: value
            }
        }
    }
}
