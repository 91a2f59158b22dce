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

    /// The seed is read; every prefix of it runs to the end, and the empty one is refused.
    @Test(arguments: seeds)
    func everyTruncation(_ name: String) {
        let bytes = Self.seed(name)
        #expect(HostileInputTarget.bundle.run(bytes), "\(name) itself is read")
        let refused = (0..<bytes.count).filter { !HostileInputTarget.bundle.run(Array(bytes.prefix($0))) }
        #expect(refused.first == 0, "an empty input is refused")
    }

    /// Every flip runs to the end, and some of the damaged headers are refused, not read.
    @Test(arguments: seeds)
    func everyBitFlipOfTheFirst160Bytes(_ name: String) {
        let bytes = Self.seed(name)
        var refused = 0
        for index in 0..<min(160, bytes.count) {
            for bit in 0..<8 {
                var copy = bytes
                copy[index] ^= 1 << bit
                if !HostileInputTarget.bundle.run(copy) { refused += 1 }
            }
        }
        #expect(refused > 0, "no flip of \(name)'s header was refused")
    }
}
