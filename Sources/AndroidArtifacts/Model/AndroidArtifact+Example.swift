import BinaryInspect
import ScanEngine
import ShipcheckCore

extension AndroidArtifact {
    /// Builds an artifact from the text form of the rule examples, one fact per line:
    ///
    ///     kind apk|aab|aar|apks|library|jniLibs       (default apk; the root is Example.<kind>)
    ///     upload YYYY-MM-DD                            the day it would be uploaded (default: today)
    ///     manifest PATH [KEY=VALUE…]                   a module's manifest: package, versionCode,
    ///         versionName, minSdk, targetSdk, debuggable (true, false or @ref), testOnly,
    ///         extractNativeLibs, split, feature (a required <uses-feature>),
    ///         permissions=NAME[,NAME…] (requested; a name without a dot is android.permission.NAME),
    ///         components=KIND:NAME[:exported][:fgs=TYPE|TYPE…][,…] (KIND activity, activity-alias,
    ///         service, receiver or provider; exported when it says so; fgs a service's
    ///         foregroundServiceType names), queries=package:NAME|intent:ACTION[;scheme=S]|provider:AUTH[,…]
    ///     bundle-config [uncompressed=true|false] [alignment=4k|16k|64k] [bundletool=VERSION]
    ///     lib PATH [OPTION…]                           a native library, whose ELF facts default to
    ///         a sound one for its ABI folder: two PT_LOAD aligned to 16 KB, section headers,
    ///         nothing needed. Options: stored=OFFSET (an uncompressed zip entry whose data
    ///         starts there; default deflated), machine=aarch64|arm|x86|x86_64|riscv64,
    ///         class=32|64, align=HEX[,HEX…] (one PT_LOAD per value), needs=a.so[,b.so…],
    ///         textrel, wx (a writable and executable PT_LOAD), shdr=missing|entsize|strndx,
    ///         debug=BYTES (a .debug_info section), unread (its ELF could not be read)
    ///     file PATH
    ///
    /// A line it does not understand is an error (an example must not pass by being skipped),
    /// and so is a value outside its list (a kind, a feature, a machine, a flag that is not true
    /// or false) or a library or manifest path the artifact kind does not hold there.
    package init(example text: String) throws(InputError) {
        var places: [ExamplePlace] = []
        try self.init(example: text, places: &places)
    }

    /// The artifact of an example text, and the path each line declares (relative to the
    /// artifact's root): a finding at that path, or at a folder holding it, is about the line;
    /// `kind` and `upload` declare the artifact itself.
    package static func example(_ text: String) throws(InputError) -> (artifact: AndroidArtifact, places: ExamplePlaces)
    {
        var places: [ExamplePlace] = []
        let artifact = try AndroidArtifact(example: text, places: &places)
        return (artifact, ExamplePlaces(root: artifact.root, places: places))
    }

    private init(example text: String, places: inout [ExamplePlace]) throws(InputError) {
        self.init(root: "Example.apk", kind: .apk)
        for line in ExampleLine.lines(of: text) {
            let number = line.number
            let bad = line.error
            let fields = line.fields
            guard let keyword = fields.first else { throw bad("a keyword expected") }
            let options = ExampleLine.options(fields.dropFirst(keyword == "bundle-config" ? 1 : 2))
            switch keyword {
            case "kind", "upload": places.append(ExamplePlace(line: number, path: ""))
            case "bundle-config": places.append(ExamplePlace(line: number, path: BundleConfig().path))
            case "lib" where kind == .library: places.append(ExamplePlace(line: number, path: ""))
            default: if fields.count >= 2 { places.append(ExamplePlace(line: number, path: fields[1])) }
            }
            switch keyword {
            case "kind":
                guard fields.count == 2, let parsed = AndroidArtifactKind(rawValue: fields[1]) else {
                    throw bad("unknown kind")
                }
                kind = parsed
                root =
                    parsed == .libraryFolder
                    ? "jniLibs" : parsed == .library ? "libexample.so" : "Example.\(parsed.rawValue)"
            case "upload":
                let parts = fields.count == 2 ? fields[1].split(separator: "-") : []
                guard parts.map(\.count) == [4, 2, 2],
                    parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
                else {
                    throw bad("YYYY-MM-DD expected")
                }
                uploadDay = fields[1]
            case "file":
                guard fields.count == 2 else { throw bad("file PATH expected") }
                files.append(fields[1])
            case "manifest":
                guard fields.count >= 2, let module = AndroidLayout.manifestModule(at: fields[1], in: kind) else {
                    throw bad("no manifest of a \(kind.rawValue) lies there")
                }
                manifests.append(
                    ModuleManifest(path: fields[1], module: module, manifest: try Self.manifest(options, bad)))
                files.append(fields[1])
            case "bundle-config":
                var config = BundleConfig()
                for (key, value) in options {
                    switch (key, value) {
                    case ("uncompressed", "true"): config.uncompressNativeLibraries = true
                    case ("uncompressed", "false"): config.uncompressNativeLibraries = false
                    case ("alignment", "4k"): config.nativeLibraryAlignment = 4096
                    case ("alignment", "16k"): config.nativeLibraryAlignment = 16384
                    case ("alignment", "64k"): config.nativeLibraryAlignment = 65536
                    case ("bundletool", let version?): config.bundletoolVersion = version
                    default: throw bad("unknown bundle-config option '\(key)'")
                    }
                }
                bundleConfig = config
                files.append(config.path)
            case "lib":
                guard fields.count >= 2 else { throw bad("lib PATH expected") }
                let path = kind == .library ? "" : fields[1]
                guard let (module, abi) = AndroidLayout.library(at: kind == .library ? "x.so" : path, in: kind) else {
                    throw bad("no native library of a \(kind.rawValue) lies there")
                }
                libraries.append(try Self.library(path: path, module: module, abi: abi, options, bad))
                if !path.isEmpty { files.append(path) }
            default:
                throw bad("unknown keyword '\(keyword)'")
            }
        }
    }

    private static func manifest(_ options: [(String, String?)], _ bad: (String) -> InputError) throws(InputError)
        -> AndroidManifest
    {
        var manifest = AndroidManifest()
        for (key, value) in options {
            guard let value else { throw bad("KEY=VALUE expected, not '\(key)'") }
            func flag() throws(InputError) -> Bool {
                guard value == "true" || value == "false" else { throw bad("\(key) is true or false") }
                return value == "true"
            }
            switch key {
            case "package": manifest.package = value
            case "versionCode":
                guard let code = Int64(value) else { throw bad("versionCode is a number") }
                manifest.versionCode = code
            case "versionName": manifest.versionName = value
            case "minSdk":
                guard let level = Int(value) else { throw bad("minSdk is a number") }
                manifest.minSdk = level
            case "targetSdk": manifest.targetSdkText = value
            case "debuggable":
                // A resource reference (@bool/debug) stays unknown, as the readers leave it.
                if !value.hasPrefix("@") { manifest.debuggable = try flag() }
            case "testOnly": manifest.testOnly = try flag()
            case "extractNativeLibs": manifest.extractNativeLibs = try flag()
            case "split": manifest.split = value
            case "feature":
                let features: [String: AndroidManifest.FormFactor] = [
                    "android.hardware.type.watch": .wear, "android.software.leanback": .television,
                    "android.hardware.type.automotive": .automotive
                ]
                guard let formFactor = features[value] else { throw bad("unknown feature '\(value)'") }
                manifest.formFactor = formFactor
            case "permissions":
                manifest.permissions = value.split(separator: ",").map {
                    $0.contains(".") ? String($0) : "android.permission." + $0
                }
            case "components":
                for text in value.split(separator: ",") { manifest.components.append(try component(text, bad)) }
            case "queries":
                manifest.queries = value.split(separator: ",").map(String.init)
                guard
                    manifest.queries.allSatisfy({
                        $0.hasPrefix("package:") || $0.hasPrefix("intent:") || $0.hasPrefix("provider:")
                    })
                else { throw bad("queries are package:, intent: or provider:") }
            default: throw bad("unknown manifest key '\(key)'")
            }
        }
        return manifest
    }

    /// `KIND:NAME[:exported][:fgs=TYPE|TYPE…]`.
    private static func component(_ text: Substring, _ bad: (String) -> InputError) throws(InputError)
        -> AndroidManifest.Component
    {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count >= 2, let kind = AndroidManifest.Component.Kind(rawValue: parts[0]) else {
            throw bad("a component is KIND:NAME, KIND one of activity, activity-alias, service, receiver, provider")
        }
        var component = AndroidManifest.Component(kind: kind, name: parts[1], isExported: false)
        for option in parts.dropFirst(2) {
            if option == "exported" {
                component.isExported = true
            } else if option.hasPrefix("fgs="), kind == .service {
                let names = option.dropFirst(4).split(separator: "|").map(String.init)
                guard names.allSatisfy({ AndroidManifest.ForegroundServiceType(rawValue: $0) != nil }) else {
                    throw bad("unknown foreground service type in '\(option)'")
                }
                component.foregroundServiceTypes = AndroidManifest.ForegroundServiceType.names(
                    text: names.joined(separator: "|"))
            } else {
                throw bad("unknown component option '\(option)' (exported, or fgs= on a service)")
            }
        }
        return component
    }

    private static func library(
        path: String, module: String, abi: AndroidABI?, _ options: [(String, String?)], _ bad: (String) -> InputError
    ) throws(InputError) -> NativeLibrary {
        let machines: [String: UInt16] = ["aarch64": 183, "arm": 40, "x86": 3, "x86_64": 62, "riscv64": 243]
        var elf = ELFLoadFacts(machine: abi?.machine ?? 183, is64Bit: abi?.is64Bit ?? true)
        elf.loadSegments = [
            .init(alignment: 0x4000, isExecutable: true), .init(alignment: 0x4000, isWritable: true)
        ]
        var library = NativeLibrary(path: path, module: module, abi: abi, storage: .deflated, elf: nil)
        var unread = false
        for (key, value) in options {
            switch (key, value) {
            case ("stored", let offset?):
                guard let offset = UInt64(offset) else { throw bad("stored=OFFSET, a number") }
                library.storage = .stored(dataOffset: offset)
            case ("deflated", nil): library.storage = .deflated
            case ("machine", let name?):
                guard let machine = machines[name] else { throw bad("unknown machine '\(name)'") }
                elf.machine = machine
            case ("class", "32"): elf.is64Bit = false
            case ("class", "64"): elf.is64Bit = true
            case ("align", let list?):
                var segments: [ELFLoadFacts.LoadSegment] = []
                for item in list.split(separator: ",") {
                    guard item.hasPrefix("0x"), let value = UInt64(item.dropFirst(2), radix: 16) else {
                        throw bad("align=0xHEX[,0xHEX…]")
                    }
                    segments.append(
                        .init(alignment: value, isWritable: !segments.isEmpty, isExecutable: segments.isEmpty))
                }
                elf.loadSegments = segments
            case ("needs", let list?): elf.needed = list.split(separator: ",").map(String.init)
            case ("textrel", nil): elf.hasTextRelocations = true
            case ("wx", nil): elf.loadSegments.append(.init(alignment: 0x4000, isWritable: true, isExecutable: true))
            case ("shdr", "missing"): elf.sectionHeaderProblem = .missing
            case ("shdr", "entsize"): elf.sectionHeaderProblem = .entrySize(found: 0, expected: elf.is64Bit ? 64 : 40)
            case ("shdr", "strndx"): elf.sectionHeaderProblem = .namesIndex(0)
            case ("debug", let size?):
                guard let size = UInt64(size) else { throw bad("debug=BYTES, a number") }
                elf.debugSections.append(.init(name: ".debug_info", size: size))
            case ("unread", nil): unread = true
            default: throw bad("unknown lib option '\(key)'")
            }
        }
        library.elf = unread ? nil : elf
        return library
    }
}
