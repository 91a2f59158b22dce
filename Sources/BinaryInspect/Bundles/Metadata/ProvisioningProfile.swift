import ShipcheckCore
import SwiftASN1

/// A provisioning profile (`embedded.mobileprovision`, `embedded.provisionprofile`): a CMS
/// SignedData envelope (RFC 5652) whose encapsulated content is the profile's property list.
/// The envelope is read as BER (Apple writes indefinite lengths and chunked OCTET STRINGs);
/// the signature is not verified — only what the profile says is read.
package struct ProvisioningProfile: Sendable, Hashable {
    /// What the profile allows: the distribution method it is made for.
    package typealias Kind = DistributionMethod

    package var name: String?
    package var kind: Kind
    package var deviceCount: Int
    /// The profile's `Entitlements` dictionary (scalar entries).
    package var entitlements: [String: String]

    package init(name: String?, kind: Kind, deviceCount: Int, entitlements: [String: String]) {
        self.name = name
        self.kind = kind
        self.deviceCount = deviceCount
        self.entitlements = entitlements
    }

    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]

    /// Reads a profile's bytes: CMS envelope, then the property list inside.
    package static func parse(_ bytes: some Collection<UInt8>) throws(PropertyListError) -> ProvisioningProfile {
        let content = try encapsulatedContent(Array(bytes))
        let plist = try PropertyListSummary.parse(content, what: "the profile's content")
        var entitlements: [String: String] = [:]
        for (key, value) in plist.values where key.hasPrefix("Entitlements.") {
            entitlements[String(key.dropFirst("Entitlements.".count))] = value
        }
        let devices = plist.arrayCounts["ProvisionedDevices"] ?? 0
        let kind: Kind =
            plist.isTrue("ProvisionsAllDevices")
            ? .enterprise
            : devices == 0
                ? .appStore
                : entitlements["get-task-allow"] == "true" ? .development : .adHoc
        return ProvisioningProfile(
            name: plist.values["Name"], kind: kind, deviceCount: devices, entitlements: entitlements)
    }

    /// `ContentInfo { contentType signedData, [0] SignedData { version, digestAlgorithms,
    /// encapContentInfo { eContentType, [0] OCTET STRING } … } }` → the OCTET STRING's bytes,
    /// joined when it is constructed (chunked).
    static func encapsulatedContent(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
        let notCMS = PropertyListError(message: "not a CMS-signed provisioning profile")
        let root: ASN1Node
        do { root = try BER.parse(bytes) } catch {
            throw PropertyListError(message: "not a CMS-signed provisioning profile (not BER/DER)")
        }
        guard let contentType = child(root, 0), let oid = try? ASN1ObjectIdentifier(berEncoded: contentType),
            oid == signedDataOID
        else {
            throw PropertyListError(
                message: "not a CMS-signed provisioning profile (its content type is not signedData)")
        }
        guard let explicit = child(root, 1), let signedData = child(explicit, 0),
            let encapsulated = child(signedData, 2),
            let wrapper = child(encapsulated, 1), let octets = child(wrapper, 0)
        else {
            throw PropertyListError(
                message: "CMS profile without encapsulated content (detached signature?): nothing to read")
        }
        var content: [UInt8] = []
        guard collectOctets(octets, into: &content, depth: 0), !content.isEmpty else { throw notCMS }
        return content
    }

    private static func child(_ node: ASN1Node, _ index: Int) -> ASN1Node? {
        guard case .constructed(let children) = node.content else { return nil }
        var iterator = children.makeIterator()
        for _ in 0..<index { guard iterator.next() != nil else { return nil } }
        return iterator.next()
    }

    /// A primitive OCTET STRING's bytes, or a constructed one's chunks in order.
    private static func collectOctets(_ node: ASN1Node, into content: inout [UInt8], depth: Int) -> Bool {
        guard node.identifier.tagNumber == ASN1Identifier.octetString.tagNumber, node.identifier.tagClass == .universal,
            depth < 8
        else { return false }
        switch node.content {
        case .primitive(let bytes):
            content += bytes
            return true
        case .constructed(let chunks):
            return chunks.allSatisfy { collectOctets($0, into: &content, depth: depth + 1) }
        }
    }
}
