import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import AndroidArtifacts

/// The facts a release diff compares: requested permissions, components and what they expose,
/// and `<queries>`, from a manifest a real tool compiled, from text, and from the examples'
/// text form through each artifact kind's bytes.
@Suite struct ManifestFactsTests {
    /// Tests/Fixtures/android/src/facts.xml as `aapt dump xmltree` / `aapt dump permissions`
    /// show `Facts.apk` (Debian's aapt, Android 10's framework resources): the requested
    /// permissions without the declared one and the repeat, the flag sets 0x29 and 0x16.
    static let expected: AndroidManifest = {
        var manifest = AndroidManifest()
        manifest.package = "com.example.facts"
        manifest.versionCode = 3
        manifest.minSdk = 24
        manifest.targetSdkText = "29"
        manifest.permissions = [
            "android.permission.ACCESS_BACKGROUND_LOCATION", "android.permission.READ_SMS",
            "android.permission.FOREGROUND_SERVICE"
        ]
        manifest.components = [
            .init(kind: .activity, name: ".MainActivity", isExported: true),
            .init(kind: .activityAlias, name: ".Launcher", isExported: false),
            .init(
                kind: .service, name: ".SyncService", isExported: false,
                foregroundServiceTypes: ["dataSync", "location", "mediaProjection"]),
            .init(
                kind: .service, name: ".CallService", isExported: false,
                foregroundServiceTypes: ["mediaPlayback", "phoneCall", "connectedDevice"]),
            .init(kind: .receiver, name: ".BootReceiver", isExported: true),
            .init(kind: .provider, name: ".FilesProvider", isExported: false),
            .init(kind: .provider, name: ".LegacyProvider", isExported: false)
        ]
        manifest.queries = ["package:com.example.other", "intent:android.intent.action.VIEW;scheme=https"]
        return manifest
    }()

    @Test func aaptCompiledManifestStatesItsFacts() throws {
        let bytes = try ManifestReaderTests.entry("AndroidManifest.xml", of: "Facts.apk")
        let compiled = try AndroidManifest(BinaryXMLReader.read(bytes))
        let differences = ReadBack.fields(compiled, Self.expected, at: "Facts.apk")
        #expect(differences.isEmpty, "\(differences)")
        // The source it was compiled from reads alike: the names of a text flag set decode to
        // what aapt compiled them to.
        let source = try Data(contentsOf: URL(fileURLWithPath: Repository.path("Tests/Fixtures/android/src/facts.xml")))
        #expect(try AndroidManifest(TextXMLReader.read(Array(source))) == compiled)
    }

    /// Without `android:exported`: exported when an intent filter is there (the default before
    /// API 31), a provider when the app targets an API below 17 (not a preview's codename);
    /// an exported value that is a resource reference is left to the default too.
    @Test(arguments: [("16", true), ("17", false), ("Baklava", false)])
    func exportedDefaults(_ targetSdk: String, _ providerExported: Bool) throws {
        let text = """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example">
              <uses-sdk android:targetSdkVersion="\(targetSdk)"/>
              <application>
                <service android:name=".Filtered"><intent-filter><action android:name="a"/></intent-filter></service>
                <receiver android:name=".Plain"/>
                <activity android:name=".Referenced" android:exported="@bool/exported"/>
                <provider android:name=".Provider" android:authorities="com.example.p"/>
                <meta-data android:name="not.a.component"/>
              </application>
            </manifest>
            """
        let manifest = try AndroidManifest(TextXMLReader.read(Array(text.utf8)))
        #expect(manifest.components.map(\.name) == [".Filtered", ".Plain", ".Referenced", ".Provider"])
        #expect(manifest.components.map(\.isExported) == [true, false, false, providerExported])
    }

    /// A flag a newer platform added is kept as its value, after the names this one knows.
    @Test func anUnknownForegroundServiceFlagIsKeptAsItsValue() {
        #expect(
            AndroidManifest.ForegroundServiceType.names(compiled: 0x29 | 0x8000)
                == ["dataSync", "location", "mediaProjection", "0x8000"])
        #expect(
            AndroidManifest.ForegroundServiceType.names(text: "location | dataSync|0x8000") == [
                "dataSync", "location", "0x8000"
            ])
    }

    static let exampleFacts =
        "permissions=CAMERA,com.example.permission.SYNC,READ_MEDIA_IMAGES"
        + " components=activity:.Main:exported,service:.Sync:fgs=location|dataSync|specialUse,provider:.Files"
        + " queries=package:com.example.maps,intent:android.intent.action.VIEW;scheme=geo,provider:com.example.a"

    @Test func exampleTextStatesTheFacts() throws {
        let artifact = try AndroidArtifact(example: "manifest AndroidManifest.xml \(Self.exampleFacts)")
        let manifest = try #require(artifact.manifests.first).manifest
        #expect(
            manifest.permissions == [
                "android.permission.CAMERA", "com.example.permission.SYNC", "android.permission.READ_MEDIA_IMAGES"
            ])
        #expect(
            manifest.components == [
                .init(kind: .activity, name: ".Main", isExported: true),
                .init(
                    kind: .service, name: ".Sync", isExported: false,
                    foregroundServiceTypes: ["dataSync", "location", "specialUse"]),
                .init(kind: .provider, name: ".Files", isExported: false)
            ])
        #expect(
            manifest.queries == [
                "package:com.example.maps", "intent:android.intent.action.VIEW;scheme=geo", "provider:com.example.a"
            ])
    }

    /// The example's facts written as each kind keeps its manifest (binary XML, protobuf,
    /// text) and read back by the walker, fact by fact.
    @Test(arguments: [
        ("apk", "AndroidManifest.xml"), ("aab", "base/manifest/AndroidManifest.xml"), ("aar", "AndroidManifest.xml")
    ])
    func exampleFactsReadBackFromEachKind(_ kind: String, _ path: String) throws {
        let artifact = try AndroidArtifact(example: "kind \(kind)\nmanifest \(path) \(Self.exampleFacts)")
        let (read, result) = try ReadBack.read(artifact)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors.map(\.description))")
        let differences = try ReadBack.differences(#require(read), from: artifact)
        #expect(differences.isEmpty, "\(differences)")
    }
}
