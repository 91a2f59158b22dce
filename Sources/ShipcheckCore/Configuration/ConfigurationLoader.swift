import Foundation

/// Finds and reads `.shipcheck.yml`, rejecting anything it does not understand.
public enum ConfigurationLoader {
    static let topLevelKeys = [
        "include", "exclude", "rules", "flags", "development-paths", "generated", "check-generated", "binaries",
        "queries",
        "conflicts", "binary", "bundle", "preflight", "release-configurations", "max-file-size"
    ]

    /// The configuration for a scan of `root`: the file given with `--config`, else
    /// `.shipcheck.yml` in the root (a file root looks beside itself), else the defaults.
    /// Read through `source`, so a scan that reads the file again gets the same bytes.
    public static func load(
        explicitPath: String?, root: String, knownRules: Set<String>,
        source: any FileSource = DiskFileSource()
    ) throws(InputError) -> Configuration {
        if let explicitPath {
            guard FileKind.of(explicitPath) != nil else {
                throw InputError(path: explicitPath, message: "configuration file not found")
            }
            return try load(file: explicitPath, knownRules: knownRules, source: source)
        }
        let directory = FileKind.of(root) == .directory ? root : (root as NSString).deletingLastPathComponent
        let candidate = (directory.isEmpty ? "." : directory) + "/" + Configuration.fileName
        guard FileKind.of(candidate) != nil else { return Configuration() }
        return try load(file: candidate, knownRules: knownRules, source: source)
    }

    public static func load(file: String, knownRules: Set<String>, source: any FileSource = DiskFileSource())
        throws(InputError) -> Configuration
    {
        let bytes = try source.read(file, displayPath: file, sizeLimit: 4 * 1024 * 1024)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(path: file, message: "configuration is not valid UTF-8")
        }
        return try parse(text, file: file, knownRules: knownRules)
    }

    public static func parse(_ text: String, file: String, knownRules: Set<String>) throws(InputError) -> Configuration
    {
        let top = try YAMLMapping.parse(text, file: file)
        try top.requireKeys(in: topLevelKeys)
        var configuration = Configuration()
        configuration.sourcePath = file
        if let include = try top.stringList("include") { configuration.include = GlobList(include) }
        if let exclude = try top.stringList("exclude") { configuration.exclude = GlobList(exclude) }
        if let rules = try top.mapping("rules") {
            for (key, value) in rules.mapping {
                let id = key.scalar?.string ?? ""
                guard knownRules.contains(id) else {
                    throw InputError(
                        path: file, line: key.mark?.line,
                        message: "unknown rule '\(id)' in 'rules' (see 'shipcheck help audit' for rule ids)")
                }
                let setting = value.scalar?.string ?? ""
                if ["off", "disabled", "false"].contains(setting) {
                    configuration.ruleSeverities[id] = .some(nil)
                } else if let severity = Severity(rawValue: setting) {
                    configuration.ruleSeverities[id] = severity
                } else {
                    throw InputError(
                        path: file, line: value.mark?.line, message: "'rules.\(id)' must be error, warning, note or off"
                    )
                }
            }
        }
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
        if let binaries = try top.stringList("binaries") { configuration.binaries = binaries }
        if let queries = try top.string("queries") { configuration.queriesFile = queries }
        if let conflicts = try top.mapping("conflicts") {
            try conflicts.requireKeys(in: ["allow"])
            configuration.conflictAllow = GlobList(try conflicts.stringList("allow") ?? [])
        }
        if let binary = try top.mapping("binary") {
            try binary.requireKeys(in: ["symbol-patterns", "string-patterns"])
            configuration.binarySymbolPatterns = try binary.stringList("symbol-patterns")
            configuration.binaryStringPatterns = try binary.stringList("string-patterns")
        }
        if let bundle = try top.mapping("bundle") {
            try bundle.requireKeys(in: ["distribution", "resource-patterns"])
            if let distribution = try bundle.string("distribution") {
                let methods = [
                    "app-store", "app-store-connect", "ad-hoc", "release-testing", "development", "debugging",
                    "enterprise", "developer-id"
                ]
                guard methods.contains(distribution) else {
                    throw InputError(
                        path: file, line: bundle.line(of: "distribution"),
                        message: "'bundle.distribution' must be one of \(methods.joined(separator: ", "))")
                }
                configuration.bundleDistribution = distribution
            }
            configuration.bundleResourcePatterns = try bundle.stringList("resource-patterns")
        }
        if let preflight = try top.mapping("preflight") {
            try preflight.requireKeys(in: ["minimum-sdk", "debugging-tools"])
            if let floors = try preflight.mapping("minimum-sdk") {
                let platforms = ["ios", "tvos", "watchos", "visionos", "macos"]
                for (key, value) in floors.mapping {
                    let platform = key.scalar?.string ?? ""
                    guard platforms.contains(platform) else {
                        throw InputError(
                            path: file, line: key.mark?.line,
                            message:
                                "'preflight.minimum-sdk' keys are platforms: \(platforms.joined(separator: ", ")), not '\(platform)'"
                        )
                    }
                    let version = value.scalar?.string ?? ""
                    let parts = version.split(separator: ".", omittingEmptySubsequences: false)
                    guard (1...3).contains(parts.count),
                        parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
                    else {
                        throw InputError(
                            path: file, line: value.mark?.line,
                            message:
                                "'preflight.minimum-sdk.\(platform)' must be a version such as 18.0, not '\(version)'")
                    }
                    configuration.preflightMinimumSDK[platform] = version
                }
            }
            configuration.preflightDebuggingTools = try preflight.stringList("debugging-tools") ?? []
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
}
