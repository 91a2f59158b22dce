/// An XML element of an Android manifest, whichever of its three encodings it was read from:
/// binary XML in an APK (`BinaryXMLReader`), aapt2's protobuf XML in an App Bundle
/// (`ProtoXMLReader`), text in an AAR (`TextXMLReader`). The manifest facts are read from this
/// one tree, so the three agree by construction.
package struct ManifestElement: Sendable, Hashable {
    package var name: String
    package var attributes: [ManifestAttribute] = []
    package var children: [ManifestElement] = []

    package init(name: String, attributes: [ManifestAttribute] = [], children: [ManifestElement] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The attribute of the `android:` namespace: by its resource ID where the encoding keeps
    /// one (what the package manager reads, so a renamed attribute string does not hide it),
    /// else by name.
    package func androidAttribute(_ attribute: AndroidAttribute) -> ManifestAttribute? {
        attributes.first { $0.resourceID == attribute.resourceID }
            ?? attributes.first {
                ($0.resourceID == nil || $0.resourceID == 0) && $0.name == attribute.name
                    && $0.namespace == ManifestElement.androidNamespace
            }
    }

    /// A plain attribute (no namespace), such as the manifest's `package`.
    package func attribute(_ name: String) -> ManifestAttribute? {
        attributes.first { $0.name == name && ($0.namespace ?? "").isEmpty }
    }

    /// The children with this name.
    package func children(named name: String) -> [ManifestElement] { children.filter { $0.name == name } }

    package static let androidNamespace = "http://schemas.android.com/apk/res/android"
}

package struct ManifestAttribute: Sendable, Hashable {
    package var namespace: String?
    package var name: String
    /// The `android:` attribute's resource ID (0x0101xxxx), where the encoding records it.
    package var resourceID: UInt32?
    package var value: ManifestValue

    package init(namespace: String? = nil, name: String, resourceID: UInt32? = nil, value: ManifestValue) {
        self.namespace = namespace
        self.name = name
        self.resourceID = resourceID
        self.value = value
    }
}

/// A typed attribute value: what aapt compiled the text to.
package enum ManifestValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case boolean(Bool)
    /// A reference to a resource (`@bool/debug`), which only the resource table resolves.
    case reference(UInt32)

    /// The value as a boolean, when it is one (text `true` / `false` too).
    package var boolean: Bool? {
        switch self {
        case .boolean(let value): value
        case .string(let text): text == "true" ? true : text == "false" ? false : nil
        case .integer, .reference: nil
        }
    }

    /// The value as an integer, when it is one (decimal text too).
    package var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .string(let text): Int64(text)
        case .boolean, .reference: nil
        }
    }

    /// How messages quote it.
    package var text: String {
        switch self {
        case .string(let text): text
        case .integer(let value): String(value)
        case .boolean(let value): String(value)
        case .reference(let id): "@0x" + String(id, radix: 16)
        }
    }
}

/// The `android:` attributes shipcheck reads, with their resource IDs (the framework's
/// `public.xml`, fixed since the API level each appeared in).
package enum AndroidAttribute: String, Sendable, CaseIterable {
    case debuggable, testOnly, targetSdkVersion, minSdkVersion, versionCode, versionName, extractNativeLibs
    case name, required
    case exported, authorities, foregroundServiceType, scheme

    package var name: String { rawValue }

    package var resourceID: UInt32 {
        switch self {
        case .debuggable: 0x0101_000F
        case .testOnly: 0x0101_0272
        case .targetSdkVersion: 0x0101_0270
        case .minSdkVersion: 0x0101_020C
        case .versionCode: 0x0101_021B
        case .versionName: 0x0101_021C
        case .extractNativeLibs: 0x0101_04EA
        case .name: 0x0101_0003
        case .required: 0x0101_028E
        case .exported: 0x0101_0010
        case .authorities: 0x0101_0018
        case .foregroundServiceType: 0x0101_0599
        case .scheme: 0x0101_0027
        }
    }
}

/// A manifest that cannot be read, in the reader's words.
package struct ManifestError: Error, Sendable {
    package var message: String

    package init(_ message: String) { self.message = message }
}
