import Foundation
import HostileInputTargets
import ShipcheckTestSupport
import Testing

/// The bundle-metadata fuzz target's readers (CMS profile, code-signature SuperBlob, property
/// list, and the bundle rules on Info.plists and privacy manifests holding the bytes) on every
/// truncation and every single-bit flip of the headers of the committed inputs: each returns
/// (an error or a value), none crashes or traps.
@Suite struct HostileBundleMetadataTests {
    static let seeds = [
        "profile-ber.mobileprovision", "profile-der.mobileprovision", "superblob-entitlements.bin",
        "info-binary.plist", "info-wrong-types.plist", "manifest.xcprivacy", "manifest-wrong-types.xcprivacy",
        "privacy-manifest.xcprivacy", "privacy-manifest-binary.xcprivacy"
    ]

    static func seed(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: HostileFuzzRegressionTests.folder + "/bundle/" + name)!)
    }

    @Test(arguments: seeds)
    func everyTruncation(_ name: String) {
        let bytes = Self.seed(name)
        for cut in 0..<bytes.count { HostileInputTarget.bundle.run(Array(bytes.prefix(cut))) }
    }

    @Test(arguments: seeds)
    func everyBitFlipOfTheFirst160Bytes(_ name: String) {
        let bytes = Self.seed(name)
        for index in 0..<min(160, bytes.count) {
            for bit in 0..<8 {
                var copy = bytes
                copy[index] ^= 1 << bit
                HostileInputTarget.bundle.run(copy)
            }
        }
    }
}
