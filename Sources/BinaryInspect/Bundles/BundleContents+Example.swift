import ScanEngine
import ShipcheckCore

extension BundleContents {
    /// Builds contents from the text form of the rule examples, one fact per line; the model's
    /// relations (bundles, their Info.plists and executables) are then assembled as the walker
    /// assembles them, so an example reads exactly like the artifact it describes.
    ///
    ///     kind app|ipa|xcarchive|xcframework|framework|appex|binary      (default ipa)
    ///     distribution app-store|ad-hoc|development|enterprise
    ///     upload YYYY-MM-DD               the day it would be uploaded (default: today)
    ///     file PATH
    ///     entitlements PATH KEY=VALUE…
    ///     profile PATH development|ad-hoc|enterprise|app-store [KEY=VALUE…]   (the profile's entitlements;
    ///                                     a development profile grants get-task-allow, an ad-hoc one does not)
    ///     plist PATH {OpenStep text}      a property list at PATH (Info.plist, PrivacyInfo.xcprivacy),
    ///                                     e.g. {CFBundleIdentifier = com.example.app; CFBundleVersion = 7;}
    ///     image PATH ARCH [PLATFORM MINIMUM SDK] [uuid=UUID] [unsigned] [unread] [version-min]
    ///           [type=executable|dylib|bundle|object] [member=NAME]
    ///                                     a slice of the binary at PATH (`.`: the artifact itself, for
    ///                                     kind binary; a second line for the same PATH adds a
    ///                                     slice); PLATFORM as ld64 names it (ios,
    ///                                     ios-simulator, macos, mac-catalyst, xros…); `unread`: a
    ///                                     slice of a CPU the reader refuses (PowerPC), known by its
    ///                                     architecture only. The lines below add to the last slice:
    ///     dylib|weak-dylib|reexport-dylib|lazy-dylib|upward-dylib PATH
    ///     import SYMBOL…                  imported symbols, C-level names (stat, OBJC_CLASS_$_NSUserDefaults)
    ///     selector NAME…                  __objc_selrefs method names
    ///     module NAME…                    Swift modules whose types the slice defines
    ///     objc-class NAME…                Objective-C classes the slice defines
    ///     segment NAME [SIZE]             section SEGMENT,NAME [SIZE]
    ///     dsym PATH ARCH UUID [ARCH UUID…]
    ///
    /// A line it does not understand is an error (an example must not pass by being skipped), and
    /// so is a value outside its list (a profile, bundle or distribution kind, an image type or
    /// option) or a field too many: nothing falls back to a default silently.
    /// Without a `type=`, an image is a dylib when its name ends in `.dylib` or it lies in a
    /// `.framework`, else an executable; it is signed unless `unsigned`.
    package init(example text: String, root: String = "Example.ipa") throws(InputError) {
        var places: [ExamplePlace] = []
        try self.init(example: text, root: root, places: &places)
    }

    /// The contents of an example text, and the path each line declares: a finding at that path
    /// (or at a folder holding it) is about the line. A line that adds to a slice (`dylib`,
    /// `import`…) declares its image's path; `kind`, `distribution` and `upload` the artifact's.
    package static func example(_ text: String, root: String = "Example.ipa") throws(InputError) -> (
        contents: BundleContents, places: ExamplePlaces
    ) {
        var places: [ExamplePlace] = []
        let contents = try BundleContents(example: text, root: root, places: &places)
        return (contents, ExamplePlaces(root: root, places: places))
    }

    private init(example text: String, root: String, places: inout [ExamplePlace]) throws(InputError) {
        self.init(root: root, kind: .ipa)
        for line in ExampleLine.lines(of: text) {
            let number = line.number
            let bad = line.error
            let fields = line.fields
            guard fields.count >= 2 else { throw bad("a keyword and a value expected") }
            func exactly(_ count: Int, _ form: String) throws(InputError) {
                guard fields.count == count else { throw bad("\(form) expected") }
            }
            let rest = line.rest
            switch fields[0] {
            case "kind", "distribution", "upload": places.append(ExamplePlace(line: number, path: ""))
            case "file": places.append(ExamplePlace(line: number, path: String(rest)))
            case "image": places.append(ExamplePlace(line: number, path: fields[1] == "." ? "" : fields[1]))
            case "entitlements", "profile", "plist", "dsym": places.append(ExamplePlace(line: number, path: fields[1]))
            default:
                // The lines that add to the last slice are about its image.
                if let image = images.last { places.append(ExamplePlace(line: number, path: image.path)) }
            }
            switch fields[0] {
            case "kind":
                try exactly(2, "kind KIND")
                guard let parsed = BundleKind(rawValue: fields[1]) else { throw bad("unknown kind") }
                kind = parsed
            case "file": files.append(String(rest))
            case "entitlements": entitlements.append((fields[1], try line.pairs(fields.dropFirst(2))))
            case "profile":
                guard fields.count >= 3, let kind = ProvisioningProfile.Kind(rawValue: fields[2]) else {
                    throw bad("profile PATH development|ad-hoc|enterprise|app-store expected")
                }
                // Development and ad-hoc profiles both list devices; what tells them apart (and
                // what the profile reader goes by) is get-task-allow.
                var entitlements = try line.pairs(fields.dropFirst(3))
                if kind == .development, entitlements["get-task-allow"] == nil {
                    entitlements["get-task-allow"] = "true"
                }
                guard
                    (kind == .development) == (entitlements["get-task-allow"] == "true") || kind == .appStore
                        || kind == .enterprise
                else { throw bad("a development profile grants get-task-allow=true, an ad-hoc one does not") }
                profiles.append(
                    (
                        fields[1],
                        ProvisioningProfile(
                            name: nil, kind: kind, deviceCount: kind == .appStore || kind == .enterprise ? 0 : 2,
                            entitlements: entitlements)
                    ))
                files.append(fields[1])
            case "upload":
                try exactly(2, "upload YYYY-MM-DD")
                let parts = fields[1].split(separator: "-")
                guard parts.count == 3, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
                else { throw bad("YYYY-MM-DD expected") }
                uploadDay = fields[1]
            case "distribution":
                try exactly(2, "distribution METHOD")
                guard let method = ProvisioningProfile.Kind(rawValue: fields[1]) else {
                    throw bad("unknown distribution")
                }
                distribution = Distribution(method: method, source: "example")
            case "plist":
                let path = fields[1]
                let body = Array(rest.dropFirst(path.count).drop { $0 == " " }.utf8)
                try addPropertyList(body, at: path) { message throws(InputError) in throw bad(message) }
                files.append(path)
            case "image": try addSlice(fields.dropFirst(), bad)
            case "dylib", "weak-dylib", "reexport-dylib", "lazy-dylib", "upward-dylib":
                let link: LinkedLibrary.DylibLink =
                    switch fields[0] {
                    case "weak-dylib": .weak
                    case "reexport-dylib": .reexport
                    case "lazy-dylib": .lazy
                    case "upward-dylib": .upward
                    default: .load
                    }
                try updateLastSlice(bad) { $0.libraries.append(.dylib(String(rest), link)) }
            case "import": try updateLastSlice(bad) { $0.importedSymbols.append(contentsOf: fields.dropFirst()) }
            case "selector": try updateLastSlice(bad) { $0.selectorReferences.append(contentsOf: fields.dropFirst()) }
            case "module": try updateLastSlice(bad) { $0.definedModules += fields.dropFirst() }
            case "objc-class": try updateLastSlice(bad) { $0.definedObjCClasses += fields.dropFirst() }
            case "segment":
                guard fields.count <= 3 else { throw bad("segment NAME [SIZE] expected") }
                let size = fields.count > 2 ? UInt64(fields[2]) : 1
                guard let size else { throw bad("size is not a number") }
                // The examples' segments are all file bytes: mapped, they take as much.
                try updateLastSlice(bad) { $0.segments.append(.init(name: fields[1], fileSize: size, vmSize: size)) }
            case "section":
                guard fields.count <= 3 else { throw bad("section SEGMENT,NAME [SIZE] expected") }
                let parts = fields[1].split(separator: ",", maxSplits: 1).map(String.init)
                let size = fields.count > 2 ? UInt64(fields[2]) : 1
                guard parts.count == 2, let size else { throw bad("SEGMENT,NAME [SIZE] expected") }
                try updateLastSlice(bad) { $0.sections.append(.init(segment: parts[0], name: parts[1], size: size)) }
            case "dsym":
                let pairs = Array(fields.dropFirst(2))
                guard !pairs.isEmpty, pairs.count % 2 == 0 else { throw bad("ARCH UUID pairs expected") }
                debugSymbols.append(
                    DebugSymbolsFile(
                        path: fields[1],
                        uuids: stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], pairs[$0 + 1]) }))
            default:
                throw bad("unknown keyword '\(fields[0])'")
            }
        }
        assembleBundles()
    }

    /// `image PATH ARCH [PLATFORM MINIMUM SDK] [options]`.
    private mutating func addSlice(_ fields: ArraySlice<String>, _ bad: (String) -> InputError) throws(InputError) {
        var fields = fields
        guard fields.count >= 2 else { throw bad("image PATH ARCH expected") }
        let path = fields.first == "." ? "" : fields.first!
        fields.removeFirst()
        var slice = ImageSlice(architecture: fields.removeFirst())
        if let first = fields.first, let platform = ApplePlatform(name: first) {
            fields.removeFirst()
            guard fields.count >= 2, let minimum = OSVersion(fields.removeFirst()),
                let sdk = OSVersion(fields.removeFirst())
            else {
                throw bad("PLATFORM MINIMUM SDK expected")
            }
            (slice.platform, slice.minimumOS, slice.sdk, slice.versionCommand) = (
                platform, minimum, sdk, "LC_BUILD_VERSION"
            )
        }
        let name = path.split(separator: "/").last ?? ""
        slice.fileType = name.hasSuffix(".dylib") || path.contains(".framework/") ? .sharedLibrary : .executable
        slice.hasCodeSignature = true
        for option in fields {
            let (key, value) = ExampleLine.option(option)
            switch (key, value) {
            case ("uuid", let uuid?): slice.uuid = uuid
            case ("unsigned", nil): slice.hasCodeSignature = false
            case ("unread", nil): slice.isRead = false
            case ("member", let member?): slice.member = member
            case ("version-min", nil):
                guard let platform = slice.platform else { throw bad("version-min needs a platform") }
                let command =
                    switch platform.device {
                    case .macOS: "LC_VERSION_MIN_MACOSX"
                    case .tvOS: "LC_VERSION_MIN_TVOS"
                    case .watchOS: "LC_VERSION_MIN_WATCHOS"
                    default: "LC_VERSION_MIN_IPHONEOS"
                    }
                slice.versionCommand = command
            case ("type", let type?):
                let kinds: [String: ImageKind] = [
                    "executable": .executable, "dylib": .sharedLibrary, "bundle": .bundle, "object": .object
                ]
                guard let kind = kinds[type] else { throw bad("unknown type '\(type)'") }
                slice.fileType = kind
            default: throw bad("unknown image option '\(option)'")
            }
        }
        if let index = images.lastIndex(where: { $0.path == path }) {
            images[index].slices.append(slice)
        } else {
            images.append(BundleImage(path: path, slices: [slice]))
            if !path.isEmpty { files.append(path) }
        }
    }

    private mutating func updateLastSlice(_ bad: (String) -> InputError, _ update: (inout ImageSlice) -> Void)
        throws(InputError)
    {
        guard !images.isEmpty, !images[images.count - 1].slices.isEmpty else { throw bad("no image line above") }
        update(&images[images.count - 1].slices[images[images.count - 1].slices.count - 1])
    }

    /// A property list read from a bundle (the walker) or an example: an Info.plist goes to
    /// its bundle (one that does not parse is `unreadable`'s error: the walker's input error), a
    /// privacy manifest is kept whatever it holds (rules report a damaged one).
    package mutating func addPropertyList(
        _ bytes: some Collection<UInt8>, at path: String,
        unreadable: (String) throws(InputError) -> Void
    ) throws(InputError) {
        let name = path.split(separator: "/").last ?? ""
        if name.hasSuffix(".xcprivacy") {
            do throws(PropertyListError) {
                privacyManifests[path] = .parsed(try PropertyListValue.parse(bytes, what: "the privacy manifest"))
            } catch {
                privacyManifests[path] = .unreadable(error.message)
            }
        } else {
            do throws(PropertyListError) {
                infoPlists[path] = try PropertyListValue.parseDictionary(bytes, what: String(name))
            } catch {
                try unreadable(error.message)
            }
        }
    }
}
