import ShipcheckCore

/// What the bundle rules look at in one bundle or archive, already read: the files it holds,
/// the entitlements of its signed binaries and its provisioning profiles, and how it is meant
/// to be distributed. Like `BinaryContents`, it has a small text form the rule examples use.
public struct BundleContents: Sendable {
    /// How findings name the bundle (`build/App.ipa`); paths below are inside it.
    public var root: String
    public var kind: BundleKind
    /// Every regular file, by its path inside the bundle.
    public var files: [String] = []
    /// Binaries whose code signature carries entitlements.
    public var entitlements: [(path: String, values: [String: String])] = []
    public var profiles: [(path: String, profile: ProvisioningProfile)] = []
    public var distribution: Distribution = .assumedAppStore

    public init(root: String, kind: BundleKind) {
        self.root = root
        self.kind = kind
    }

    /// How the artifact is meant to reach users, and who said so (messages quote it).
    public struct Distribution: Sendable, Hashable {
        public var method: ProvisioningProfile.Kind
        public var source: String

        public init(method: ProvisioningProfile.Kind, source: String) {
            self.method = method
            self.source = source
        }

        /// Nothing says otherwise: a release gate assumes the store.
        public static let assumedAppStore = Distribution(
            method: .appStore, source: "assumed: no bundle.distribution in .shipcheck.yml and no ExportOptions.plist beside it")
    }

    /// A finding about a file inside the bundle (`inner` empty: the bundle itself).
    func finding(_ rule: RuleDescription, _ severity: Severity, at inner: String, message: String, fix: String, identity: String) -> Finding {
        let path = inner.isEmpty ? root : "\(root)/\(inner)"
        return Finding(ruleID: rule.id, severity: severity, message: message, location: .binary(BinaryLocation(path: path)),
                       snippet: inner.isEmpty ? nil : inner, fixHint: fix, identity: "\(inner) \(identity)")
    }

    /// Builds contents from the text form of the rule examples, one fact per line:
    ///
    ///     kind app|ipa|xcarchive|…                      file PATH
    ///     entitlements PATH KEY=VALUE…                  distribution app-store|ad-hoc|development|enterprise
    ///     profile PATH development|ad-hoc|enterprise|app-store [KEY=VALUE…]   (entitlements of the profile)
    public init(example text: String, root: String = "Example.ipa") {
        self.init(root: root, kind: .ipa)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 2 else { continue }
            let pairs = Dictionary(fields.dropFirst(2).compactMap { field -> (String, String)? in
                let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }, uniquingKeysWith: { _, last in last })
            switch fields[0] {
            case "kind": kind = BundleKind(rawValue: fields[1]) ?? kind
            case "file": files.append(fields.dropFirst().joined(separator: " "))
            case "entitlements": entitlements.append((fields[1], pairs))
            case "profile":
                let kind = fields.count > 2 ? ProvisioningProfile.Kind(rawValue: fields[2]) ?? .appStore : .appStore
                profiles.append((fields[1], ProvisioningProfile(name: nil, kind: kind, deviceCount: kind == .appStore || kind == .enterprise ? 0 : 2, entitlements: pairs)))
            case "distribution":
                distribution = Distribution(method: ProvisioningProfile.Kind(rawValue: fields[1]) ?? .appStore, source: "example")
            default: continue
            }
        }
    }
}
