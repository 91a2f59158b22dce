import BinaryInspect
import Foundation
import ShipcheckTestSupport
import Testing

/// The metadata parsers on the committed signing fixtures: code-signature entitlements (XML and
/// DER blobs), provisioning profiles in DER and BER (indefinite-length, chunked) CMS envelopes.
@Suite struct BundleMetadataTests {
    static func bytes(_ fixture: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: BundleAssembler.fixture(fixture))!)
    }

    /// The signature of `App-ios-dev-signed`, as the Mach-O reader hands it out.
    static func signature() throws -> [UInt8] {
        let file = try BinaryFile(path: BundleAssembler.fixture("bundle/App-ios-dev-signed"))
        return try #require(file.images.first?.codeSignature).array
    }

    @Test func xmlEntitlementsOfTheCodeSignature() throws {
        let entitlements = try #require(try CodeSignature.entitlements(in: Self.signature()))
        #expect(entitlements.values["get-task-allow"] == "true")
        #expect(entitlements.values["aps-environment"] == "development")
        #expect(entitlements.values["application-identifier"] == "ABCDE12345.com.example.app")
        #expect(entitlements.arrayCounts["keychain-access-groups"] == 1)
    }

    /// With the XML blob's magic damaged, the DER blob (0xfade7172) is read instead: same values.
    @Test func derEntitlementsWhenThereIsNoXMLBlob() throws {
        var signature = try Self.signature()
        let xml: [UInt8] = [0xFA, 0xDE, 0x71, 0x71]
        let at = try #require((0...(signature.count - 4)).first { Array(signature[$0..<($0 + 4)]) == xml })
        signature[at + 3] = 0x70
        let entitlements = try #require(try CodeSignature.entitlements(in: signature))
        #expect(entitlements.values["get-task-allow"] == "true")
        #expect(entitlements.values["aps-environment"] == "development")
        #expect(entitlements.arrayCounts["keychain-access-groups"] == 1)
    }

    @Test func adHocSignatureWithoutEntitlements() throws {
        let file = try BinaryFile(path: Repository.machOFixture("App-macos"))
        let signature = try #require(file.images.first?.codeSignature)
        #expect(try CodeSignature.entitlements(in: signature) == nil)
    }

    @Test func signatureBlobPastItsEndIsAnError() throws {
        var signature = try Self.signature()
        signature[12 + 4] = 0xFF  // the first blob's offset, far past the end
        #expect(throws: PropertyListError.self) {
            try CodeSignature.entitlements(in: signature)
        }
    }

    @Test func developmentProfileInADEREnvelope() throws {
        #expect(Self.bytes("bundle/dev.mobileprovision").starts(with: [0x30, 0x82]), "definite-length DER")
        let profile = try ProvisioningProfile.parse(Self.bytes("bundle/dev.mobileprovision"))
        #expect(profile.kind == .development)
        #expect(profile.deviceCount == 2)
        #expect(profile.name == "iOS Team Provisioning Profile: com.example.app")
        #expect(profile.entitlements["aps-environment"] == "development")
    }

    @Test func storeProfileInABERStreamedEnvelope() throws {
        #expect(
            Self.bytes("bundle/store.mobileprovision").starts(with: [0x30, 0x80]),
            "indefinite-length BER, as Apple writes")
        let profile = try ProvisioningProfile.parse(Self.bytes("bundle/store.mobileprovision"))
        #expect(profile.kind == .appStore)
        #expect(profile.deviceCount == 0)
        #expect(profile.entitlements["get-task-allow"] == "false")
    }

    @Test(arguments: [
        ("<?xml version=\"1.0\"?><plist><dict/></plist>", "not a CMS-signed provisioning profile (not BER/DER)"),
        ("", "not a CMS-signed provisioning profile (not BER/DER)")
    ])
    func profileThatIsNotCMSIsAnError(text: String, message: String) {
        #expect(throws: PropertyListError.self) { try ProvisioningProfile.parse(Array(text.utf8)) }
        do { _ = try ProvisioningProfile.parse(Array(text.utf8)) } catch { #expect(error.message == message) }
    }

    /// A CMS envelope of another content type (PKCS#7 data, not signedData) is refused by name.
    @Test func cmsOfAnotherContentType() {
        let data: [UInt8] = [0x30, 0x0B, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        do {
            _ = try ProvisioningProfile.parse(data)
            Issue.record("parsed")
        } catch {
            #expect(error.message == "not a CMS-signed provisioning profile (its content type is not signedData)")
        }
    }
}
