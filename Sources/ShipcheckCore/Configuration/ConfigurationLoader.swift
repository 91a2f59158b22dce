import Foundation
import ScanEngine

/// Finds and reads `.shipcheck.yml`, rejecting anything it does not understand.
package enum ConfigurationLoader {
    /// The keys of the settings every capability shares (`Configuration`'s own fields).
    static let sharedKeys = [
        "include", "exclude", "rules", "flags", "development-paths", "generated", "check-generated",
        "release-configurations", "max-file-size"
    ]

    /// The configuration for a scan of `root`: the file given with `--config`, else
    /// `.shipcheck.yml` in the root (a file root looks beside itself), else the defaults.
    /// Read through `source`, so a scan that reads the file again gets the same bytes.
    /// `rules` and `settings` are what the file may configure beside the shared keys (the
    /// frontend's registries).
    package static func load(
        explicitPath: String?, root: String, rules: [any Rule.Type], settings: [any CapabilitySettings.Type],
        source: any FileSource = DiskFileSource()
    ) throws(InputError) -> Configuration {
        if let explicitPath {
            guard FileKind.of(explicitPath) != nil else {
                throw InputError(path: explicitPath, message: "configuration file not found")
            }
            return try load(file: explicitPath, rules: rules, settings: settings, source: source)
        }
        let directory = FileKind.of(root) == .directory ? root : (root as NSString).deletingLastPathComponent
        let candidate = (directory.isEmpty ? "." : directory) + "/" + Configuration.fileName
        guard FileKind.of(candidate) != nil else { return Configuration() }
        return try load(file: candidate, rules: rules, settings: settings, source: source)
    }

    package static func load(
        file: String, rules: [any Rule.Type], settings: [any CapabilitySettings.Type],
        source: any FileSource = DiskFileSource()
    ) throws(InputError) -> Configuration {
        let bytes = try source.read(file, displayPath: file, sizeLimit: 4 * 1024 * 1024)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(path: file, message: "configuration is not valid UTF-8")
        }
        return try parse(text, file: file, rules: rules, settings: settings)
    }

    package static func parse(
        _ text: String, file: String, rules: [any Rule.Type], settings: [any CapabilitySettings.Type]
    ) throws(InputError) -> Configuration {
        let top = try YAMLMapping.parse(text, file: file)
        let knownRules = Set(rules.map { $0.id })
        let optionTypes = Dictionary(
            rules.compactMap { rule in rule.optionsType.map { (rule.id, $0) } }, uniquingKeysWith: { first, _ in first }
        )
        // A closure, not `\.topLevelKeys`: a key path to a static member of an existential
        // metatype crashes Swift 6.3's SIL generation.
        let ownedKeys = sharedKeys + settings.flatMap { $0.topLevelKeys }
        let formerKeys = FormerKeys(optionTypes, ownedKeys: ownedKeys)
        try top.requireKeys(in: ownedKeys + formerKeys.sections.filter { !ownedKeys.contains($0) })
        var configuration = Configuration()
        configuration.sourcePath = file
        configuration.textHash = StableHash.hex128(text)
        if let include = try top.stringList("include") { configuration.include = GlobList(include) }
        if let exclude = try top.stringList("exclude") { configuration.exclude = GlobList(exclude) }
        if let entries = try top.mapping("rules") {
            for (key, value) in entries.mapping {
                let id = key.scalar?.string ?? ""
                guard knownRules.contains(id) else {
                    throw InputError(
                        path: file, line: key.mark?.line,
                        message: "unknown rule '\(id)' in 'rules' (see 'shipcheck help audit' for rule ids)")
                }
                guard value.mapping != nil, let entry = try entries.mapping(id) else {
                    let setting = try severity(value.scalar?.string ?? "", of: id, file: file, line: value.mark?.line)
                    configuration.ruleSeverities[id] = .some(setting)
                    continue
                }
                let keys = optionTypes[id]?.keys ?? []
                try entry.requireKeys(in: ["severity"] + keys)
                if let text = try entry.string("severity") {
                    let setting = try severity(text, of: id, file: file, line: entry.line(of: "severity"))
                    configuration.ruleSeverities[id] = .some(setting)
                }
                if let optionType = optionTypes[id] {
                    for option in keys where entry.node(option) != nil {
                        let read = try optionType.reading(
                            option, from: entry, key: option, into: configuration.ruleOptions[id])
                        configuration.ruleOptions[id] = read
                    }
                }
            }
        }
        try formerKeys.read(top, into: &configuration)
        if let flags = try top.mapping("flags") {
            try flags.requireKeys(in: ["debug-only", "release-set"])
            configuration.debugOnlyFlags = Set(try flags.stringList("debug-only") ?? [])
            configuration.releaseSetFlags = Set(try flags.stringList("release-set") ?? [])
            if let both = configuration.debugOnlyFlags.intersection(configuration.releaseSetFlags).sorted().first {
                throw InputError(
                    path: file, line: flags.line(of: "release-set"),
                    message: "flag '\(both)' cannot be both debug-only and release-set")
            }
        }
        if let paths = try top.stringList("development-paths") { configuration.developmentPaths = GlobList(paths) }
        if let paths = try top.stringList("generated") { configuration.generated = GlobList(paths) }
        if let ids = try top.stringList("check-generated") {
            if let unknown = ids.first(where: { !knownRules.contains($0) }) {
                throw InputError(
                    path: file, line: top.line(of: "check-generated"),
                    message: "unknown rule '\(unknown)' in 'check-generated' (see 'shipcheck help audit' for rule ids)")
            }
            configuration.checkGenerated = Set(ids)
        }
        for type in settings {
            let keysReadElsewhere = type.section.map { formerKeys.keys(in: $0) } ?? []
            configuration.capabilitySettings[ObjectIdentifier(type)] = try type.read(
                from: top, keysReadElsewhere: keysReadElsewhere)
        }
        configuration.releaseConfigurations = try top.stringList("release-configurations")
        if let size = try top.int("max-file-size") {
            guard size > 0 else {
                throw InputError(
                    path: file, line: top.line(of: "max-file-size"), message: "'max-file-size' must be positive")
            }
            configuration.maxFileSize = size
        }
        return configuration
    }

    /// `error`, `warning`, `note`, or `off` (`disabled`, `false`): nil turns the rule off.
    private static func severity(_ setting: String, of id: String, file: String, line: Int?) throws(InputError)
        -> Severity?
    {
        if ["off", "disabled", "false"].contains(setting) { return nil }
        guard let severity = Severity(rawValue: setting) else {
            throw InputError(path: file, line: line, message: "'rules.\(id)' must be error, warning, note or off")
        }
        return severity
    }
}

/// The keys rules' options had before each rule owned its own (`RuleOptions.formerKeys`):
/// read into the rule's options with a note saying where the key moved.
private struct FormerKeys {
    struct Place {
        var ruleID: String
        var option: String
        var type: any RuleOptions.Type
    }
    /// Section → key → the option it stands for.
    private var places: [String: [String: Place]] = [:]
    /// The top-level keys read elsewhere: a former section among them holds other keys too.
    private let ownedKeys: [String]

    init(_ optionTypes: [String: any RuleOptions.Type], ownedKeys: [String]) {
        self.ownedKeys = ownedKeys
        for (id, type) in optionTypes {
            for (option, former) in type.formerKeys {
                let parts = former.split(separator: ".", maxSplits: 1).map(String.init)
                places[parts[0], default: [:]][parts[1]] = Place(ruleID: id, option: option, type: type)
            }
        }
    }

    var sections: [String] { places.keys.sorted() }

    func keys(in section: String) -> [String] { (places[section] ?? [:]).keys.sorted() }

    /// Reads every former key `top` sets; a section holding nothing else must hold only them.
    func read(_ top: YAMLMapping, into configuration: inout Configuration) throws(InputError) {
        for section in sections {
            guard let mapping = try top.mapping(section) else { continue }
            if !ownedKeys.contains(section) { try mapping.requireKeys(in: keys(in: section)) }
            for (key, place) in (places[section] ?? [:]).sorted(by: { $0.key < $1.key }) where mapping.node(key) != nil
            {
                let moved = "rules.\(place.ruleID).\(place.option)"
                // The rule's entry may be a bare severity: only a mapping can set the option too.
                if top.node("rules")?.mapping?[place.ruleID]?.mapping?[place.option] != nil {
                    throw InputError(
                        path: mapping.file, line: mapping.line(of: key),
                        message: "'\(section).\(key)' and '\(moved)' are the same setting; keep '\(moved)'")
                }
                configuration.ruleOptions[place.ruleID] = try place.type.reading(
                    place.option, from: mapping, key: key, into: configuration.ruleOptions[place.ruleID])
                let line = mapping.line(of: key).map { ":\($0)" } ?? ""
                configuration.deprecations.append(
                    "\(mapping.file)\(line): note: '\(section).\(key)' is deprecated; it is now '\(moved)'")
            }
        }
    }
}
