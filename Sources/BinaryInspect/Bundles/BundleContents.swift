import Foundation
import ShipcheckCore

/// What the bundle rules look at in one bundle or archive, already read: the files it holds,
/// the entitlements of its signed binaries and its provisioning profiles, how it is meant to be
/// distributed, and — for the pre-flight rules — every bundle nested in it with its Info.plist,
/// every binary with the facts of each slice, its privacy manifests and (in an `.xcarchive`)
/// its dSYMs. A single Mach-O file audited on its own is one too (`kind` `.binary`: one image,
/// no bundle). Like `BinaryContents`, it has a small text form the rule examples use
/// (BundleContents+Example.swift).
package struct BundleContents: Sendable {
    /// How findings name the bundle (`build/App.ipa`); paths below are inside it.
    package var root: String
    package var kind: BundleKind
    /// Every regular file, by its path inside the bundle.
    package var files: [String] = []
    /// The sizes of every regular file the artifact holds, by path: those of `files` and the
    /// ones it leaves out (dSYMs, `SwiftSupport`), which count toward the download all the same.
    /// A single binary (kind `.binary`) is one entry, "".
    package var entrySizes: [String: EntrySize] = [:]
    /// Binaries whose code signature carries entitlements.
    package var entitlements: [(path: String, values: [String: String])] = []
    package var profiles: [(path: String, profile: ProvisioningProfile)] = []
    package var distribution: Distribution = .assumedAppStore
    /// Every bundle folder inside (and the artifact itself when it is a bundle), by path.
    package private(set) var bundles: [NestedBundle] = []
    /// Every Mach-O binary, by path (ELF files are not part of an Apple bundle's model).
    package var images: [BundleImage] = []
    /// The `*.dSYM` DWARF files under `dSYMs/` folders (an archive's, an xcframework library's).
    package var debugSymbols: [DebugSymbolsFile] = []
    /// Every `*.xcprivacy` file, by path: its contents or why they could not be read.
    package var privacyManifests: [String: PropertyListDocument] = [:]
    /// The day (`yyyy-MM-dd`, UTC) the artifact would be uploaded: today. Apple's dated
    /// requirements (the SDK floor) are judged as of it.
    package var uploadDay = BundleContents.today()
    /// The Info.plist files read, by path (what `assembleBundles` hands to their bundles).
    package internal(set) var infoPlists: [String: [String: PropertyListValue]] = [:]

    package init(root: String, kind: BundleKind) {
        self.root = root
        self.kind = kind
    }

    /// How the artifact is meant to reach users, and who said so (messages quote it).
    package struct Distribution: Sendable, Hashable {
        package var method: ProvisioningProfile.Kind
        package var source: String

        package init(method: ProvisioningProfile.Kind, source: String) {
            self.method = method
            self.source = source
        }

        /// Nothing says otherwise: a release gate assumes the store.
        package static let assumedAppStore = Distribution(
            method: .appStore,
            source: "assumed: no bundle.distribution in .shipcheck.yml and no ExportOptions.plist beside it")
    }

    package static func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
    }

    /// Whether the artifact is meant for the App Store (store-only rules check nothing else).
    package var isForAppStore: Bool { distribution.method == .appStore }

    /// A finding about a file inside the bundle (`inner` empty: the bundle itself).
    package func finding(
        _ rule: RuleDescription, _ severity: Severity, at inner: String, message: String, fix: String, identity: String
    ) -> Finding {
        Finding(
            about: inner, in: root, rule, severity, message: message, fix: fix, identity: identity)
    }

    // MARK: The model's relations

    /// The bundle at `path` ("" for the artifact itself).
    package func bundle(at path: String) -> NestedBundle? {
        bundles.first { $0.path == path }
    }

    package func image(at path: String) -> BundleImage? {
        images.first { $0.path == path }
    }

    /// The bundle holding `path` and the ones around it, innermost first.
    package func enclosingBundles(of path: String) -> [NestedBundle] {
        bundles.filter { $0.contains(path) || $0.path == path }.sorted { $0.path.count > $1.path.count }
    }

    /// The outermost app holding `path` (an iOS app's watch app and extensions belong to it).
    package func application(holding path: String) -> NestedBundle? {
        enclosingBundles(of: path).last { $0.role == .application }
    }

    /// The artifact's app: the outermost `.app` (nil for a framework, an xcframework, a single file).
    package var mainApplication: NestedBundle? {
        bundles.filter { $0.role == .application }.min {
            $0.path.split(separator: "/").count < $1.path.split(separator: "/").count
        }
    }

    /// A bundle's executable image.
    package func executable(of bundle: NestedBundle) -> BundleImage? {
        bundle.executable.flatMap(image(at:))
    }

    /// How messages name a place inside the artifact: `App.app/PlugIns/Widget.appex`, as App
    /// Store Connect names bundles (from the app's folder on), or the artifact's name for "".
    package func displayName(_ inner: String) -> String {
        let rootName = String(root.split(separator: "/").last ?? Substring(root))
        guard !inner.isEmpty else { return rootName }
        let components = inner.split(separator: "/")
        if components.first == "Payload", components.count > 1 { return components.dropFirst().joined(separator: "/") }
        if components.first == "Products", let index = components.firstIndex(where: { $0.hasSuffix(".app") }) {
            return components[index...].joined(separator: "/")
        }
        // Inside a bundle given as it is: from its own folder on.
        return kind.bundleRole != nil && kind != .xcframework && kind != .xcarchive ? "\(rootName)/\(inner)" : inner
    }

    /// Finds the bundle folders the files lie in (and the artifact itself, when it is a
    /// bundle), gives each its Info.plist and executable, and ties every image to its bundle.
    /// Run once every file is read (the walker, the example text); running it again rebuilds
    /// the same relations.
    package mutating func assembleBundles() {
        var found: [String: NestedBundle] = [:]
        if let role = kind.bundleRole { found[""] = NestedBundle(path: "", role: role, name: displayName("")) }
        for path in Set(files + images.map(\.path)) {
            let components = path.split(separator: "/")
            for index in components.indices.dropLast() {
                guard let role = BundleRole(folder: components[index], ancestors: components[..<index]) else {
                    continue
                }
                let folder = components[...index].joined(separator: "/")
                if found[folder] == nil {
                    found[folder] = NestedBundle(path: folder, role: role, name: String(components[index]))
                }
            }
        }
        var assembled = found.values.sorted { $0.path < $1.path }
        for index in assembled.indices {
            let path = assembled[index].path
            assembled[index].container =
                assembled.filter { $0.path != path && $0.contains(path) }.max { $0.path.count < $1.path.count }?.path
            if let plist = infoPlistPath(of: assembled[index]) {
                assembled[index].infoPlistPath = plist
                assembled[index].infoPlist = infoPlists[plist] ?? [:]
            } else {
                assembled[index].infoPlistPath = nil
                assembled[index].infoPlist = [:]
            }
        }
        for index in images.indices {
            let owner = assembled.filter { $0.contains(images[index].path) }.max { $0.path.count < $1.path.count }
            images[index].bundle = owner?.path
            images[index].isBundleExecutable = false
        }
        for index in assembled.indices where assembled[index].role != .xcframework && assembled[index].role != .archive
        {
            let bundle = assembled[index]
            let name =
                bundle.info("CFBundleExecutable")
                ?? String(bundle.name.split(separator: ".").dropLast().joined(separator: "."))
            let candidates = Set(["", "Contents/MacOS/"].map { $0 + name })
            let own = images.indices.filter { images[$0].bundle == bundle.path }
            let named = own.first {
                candidates.contains(String(bundle.relative(images[$0].path)))
                    || Self.isVersioned(bundle.relative(images[$0].path), name: name)
            }
            // Without CFBundleExecutable and under another name: the one binary at the top of
            // the folder (or in Contents/MacOS), if there is exactly one.
            let topLevel = own.filter { index in
                let relative = bundle.relative(images[index].path)
                return !relative.contains("/")
                    || (relative.hasPrefix("Contents/MacOS/") && relative.split(separator: "/").count == 3)
            }
            let executable =
                named ?? (bundle.info("CFBundleExecutable") == nil && topLevel.count == 1 ? topLevel.first : nil)
            assembled[index].executable = executable.map { images[$0].path }
            if let executable { images[executable].isBundleExecutable = true }
        }
        bundles = assembled
    }

    /// `Versions/A/NAME` in a versioned framework.
    private static func isVersioned(_ relative: Substring, name: String) -> Bool {
        let components = relative.split(separator: "/")
        return components.count == 3 && components[0] == "Versions" && components[2] == name
    }

    /// The Info.plist of a bundle: `Info.plist` (iOS, flat frameworks, xcframeworks,
    /// archives), `Contents/Info.plist` (macOS), `Versions/*/Resources/Info.plist` or
    /// `Resources/Info.plist` (versioned frameworks).
    private func infoPlistPath(of bundle: NestedBundle) -> String? {
        let prefix = bundle.path.isEmpty ? "" : bundle.path + "/"
        for candidate in ["Info.plist", "Contents/Info.plist", "Resources/Info.plist"]
        where infoPlists[prefix + candidate] != nil {
            return prefix + candidate
        }
        return infoPlists.keys.filter { path in
            guard path.hasPrefix(prefix) else { return false }
            let components = path.dropFirst(prefix.count).split(separator: "/")
            return components.count == 4 && components[0] == "Versions" && components[2] == "Resources"
                && components[3] == "Info.plist"
        }.min()
    }
}

extension Finding {
    /// A finding about an entry inside an artifact (`inner` empty: the artifact itself), named
    /// `root/inner`, with the entry as its snippet: what the bundle and Android rules report.
    package init(
        about inner: String, in root: String, _ rule: RuleDescription, _ severity: Severity, message: String,
        fix: String, identity: String
    ) {
        self.init(
            ruleID: rule.id, severity: severity, message: message,
            location: .binary(BinaryLocation(path: inner.isEmpty ? root : "\(root)/\(inner)")),
            snippet: inner.isEmpty ? nil : inner, fixHint: fix, identity: "\(inner) \(identity)")
    }
}
