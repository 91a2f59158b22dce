import BinaryInspect
import Foundation

/// What the privacy rules ask of the model: which bundle a file's code or manifest belongs to,
/// and the manifests of a bundle, read (`SDKPrivacyManifestRule` here, the required-reason,
/// manifest and purpose-string rules in ReleaseAudit).
extension BundleContents {
    /// The app, extension or framework a file belongs to: its innermost enclosing bundle that
    /// holds code (a resource bundle such as `Kit_Kit.bundle` belongs to the framework or app
    /// around it, where SwiftPM and CocoaPods put manifests of statically linked code).
    package func codeBundle(of path: String) -> NestedBundle? {
        enclosingBundles(of: path).first { $0.role.isApplicationLike || $0.role == .framework }
    }

    /// The privacy manifests that belong to `bundle`, by path, read.
    package func privacyManifests(of bundle: NestedBundle) -> [(path: String, manifest: PrivacyManifest)] {
        privacyManifests.keys.sorted().compactMap { path in
            guard codeBundle(of: path)?.path == bundle.path, let document = privacyManifests[path] else { return nil }
            return (path, Self.read(document))
        }
    }

    /// A manifest document as the Preflight reader judges it.
    package static func read(_ document: PropertyListDocument) -> PrivacyManifest {
        switch document {
        case .parsed(let value): PrivacyManifest(root: value.foundationObject)
        case .unreadable: PrivacyManifest(problems: ["not a property list (XML or binary)"])
        }
    }
}

extension PropertyListValue {
    /// The value in Foundation's types, as `PropertyListSerialization` gives them.
    var foundationObject: Any {
        switch self {
        case .string(let text): text
        case .integer(let number): NSNumber(value: number)
        case .real(let number): NSNumber(value: number)
        case .boolean(let flag): NSNumber(value: flag)
        case .date(let date): date
        case .data(let bytes): Data(bytes)
        case .array(let items): items.map(\.foundationObject)
        case .dictionary(let entries): entries.mapValues(\.foundationObject)
        }
    }
}
