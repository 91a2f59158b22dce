import BinaryReaderCore
import ShipcheckCore
import SwiftASN1

/// The entitlements inside a Mach-O code signature (`LC_CODE_SIGNATURE` → SuperBlob): the XML
/// entitlements blob (magic 0xfade7171), or the DER one (0xfade7172) that newer `codesign`
/// writes beside it. Everything in the signature is big-endian and bounds-checked; a blob that
/// lies outside the SuperBlob is an error, never a read past it.
package enum CodeSignature {
    static let superBlobMagic: UInt32 = 0xFADE_0CC0
    static let entitlementsMagic: UInt32 = 0xFADE_7171
    static let derEntitlementsMagic: UInt32 = 0xFADE_7172

    /// The same from a copy of the signature's bytes (readers outside the binary readers).
    package static func entitlements(in signature: [UInt8]) throws(PropertyListError) -> PropertyListSummary? {
        try entitlements(in: FileBytes(copying: signature).whole)
    }

    /// The signature's entitlements; nil when it carries none (an ad-hoc or library signature).
    package static func entitlements(in signature: ImageBytes) throws(PropertyListError) -> PropertyListSummary? {
        let order = ByteOrder.big
        guard signature.uint32(at: 0, order) == superBlobMagic, let length = signature.uint32(at: 4, order),
            let count = signature.uint32(at: 8, order)
        else {
            throw PropertyListError(message: "the code signature is not a SuperBlob (magic 0xfade0cc0)")
        }
        let end = min(Int(length), signature.count)
        guard Int(count) <= (end - 12) / 8 else {
            throw PropertyListError(message: "the code signature's index (\(count) blobs) runs past its end")
        }
        var der: ImageBytes?
        for index in 0..<Int(count) {
            guard let offset = signature.uint32(at: 12 + index * 8 + 4, order).map(Int.init), offset <= end - 8,
                let magic = signature.uint32(at: offset, order),
                let blobLength = signature.uint32(at: offset + 4, order).map(Int.init),
                blobLength >= 8, blobLength <= end - offset,
                let body = signature.slice(offset + 8..<offset + blobLength)
            else {
                throw PropertyListError(message: "code signature blob \(index) lies outside the signature")
            }
            if magic == entitlementsMagic {
                return try PropertyListSummary.parse(body.array, what: "the code signature's entitlements")
            }
            if magic == derEntitlementsMagic { der = body }
        }
        return try der.map { body throws(PropertyListError) in try DEREntitlements.parse(body.array) }
    }
}

/// Apple's DER form of entitlements: `[APPLICATION 16] { INTEGER version, [CONTEXT 16] dict }`,
/// a dictionary being a set of `SEQUENCE { UTF8String key, value }` and a value a BOOLEAN,
/// INTEGER, UTF8String, SEQUENCE (array) or another dictionary.
enum DEREntitlements {
    static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListSummary {
        do {
            let root = try DER.parse(bytes)
            guard case .constructed(let parts) = root.content,
                root.identifier == ASN1Identifier(tagWithNumber: 16, tagClass: .application)
            else {
                throw PropertyListError(
                    message: "the code signature's DER entitlements do not start with [APPLICATION 16]")
            }
            var summary = PropertyListSummary()
            guard let dictionary = Array(parts).last, case .constructed(let entries) = dictionary.content else {
                return summary
            }
            for entry in entries {
                guard case .constructed(let pair) = entry.content else { continue }
                let fields = Array(pair)
                guard fields.count == 2, let key = try? String(ASN1UTF8String(derEncoded: fields[0])) else { continue }
                if let flag = try? Bool(derEncoded: fields[1]) {
                    summary.values[key] = flag ? "true" : "false"
                } else if let text = try? ASN1UTF8String(derEncoded: fields[1]) {
                    summary.values[key] = String(text)
                } else if let number = try? Int(derEncoded: fields[1]) {
                    summary.values[key] = String(number)
                } else if case .constructed(let items) = fields[1].content, fields[1].identifier == .sequence {
                    summary.arrayCounts[key] = Array(items).count
                }
            }
            return summary
        } catch let error as PropertyListError {
            throw error
        } catch {
            throw PropertyListError(message: "the code signature's DER entitlements are not valid DER")
        }
    }
}
