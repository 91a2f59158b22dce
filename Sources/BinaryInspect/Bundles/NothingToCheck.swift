import ScanEngine
import ShipcheckCore

/// An artifact that holds nothing to check must not pass as clean: an `.ipa` without
/// `Payload/*.app`, an app or extension without its executable, an `.xcarchive` without a
/// product, a framework without its binary. Each is an input error naming the artifact (or the
/// bundle inside it).
enum NothingToCheck {
    static func problems(in bundle: BundleContents) -> [InputError] {
        func at(_ inner: String) -> String { inner.isEmpty ? bundle.root : "\(bundle.root)/\(inner)" }
        switch bundle.kind {
        case .ipa:
            let apps = bundle.bundles.filter {
                $0.role == .application && $0.container == nil && $0.path.hasPrefix("Payload/")
            }
            if apps.isEmpty {
                return [
                    InputError(
                        path: bundle.root,
                        message: "no Payload/*.app inside: nothing to check (is this an exported .ipa?)")
                ]
            }
        case .xcarchive:
            if !bundle.images.contains(where: { $0.path.hasPrefix("Products/") }) {
                return [
                    InputError(
                        path: bundle.root,
                        message: "no product under Products/ (no app, framework or tool was archived): nothing to check"
                    )
                ]
            }
        default:
            break
        }
        // A bundle whose binaries are there under other names was still audited: only one
        // without any binary of its own is hollow.
        return bundle.bundles.filter { nested in
            nested.executable == nil && (nested.role.isApplicationLike || nested.role == .framework)
                && !bundle.images.contains { $0.bundle == nested.path }
        }.map { nested in
            let expected = nested.info("CFBundleExecutable").map { "its CFBundleExecutable '\($0)'" } ?? "an executable"
            let what = nested.role == .framework ? "framework" : nested.role == .appExtension ? "app extension" : "app"
            return InputError(path: at(nested.path), message: "\(what) without \(expected): nothing to check")
        }
    }
}
