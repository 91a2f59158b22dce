import ShipcheckCore

/// `shipcheck binary`'s engine: finds ELF files under the given paths and reports the preview,
/// test, mock and fixture code that shipped in them. `shipcheck audit` calls it too.
public struct BinaryInspector: Sendable {
    public let configuration: Configuration
    /// The binary rules the configuration leaves on.
    private let rules: [any BinaryRule.Type]

    /// `rules`: the registry's rules; the inspector runs the binary rules among them.
    public init(configuration: Configuration, rules: [any Rule.Type]) {
        self.configuration = configuration
        self.rules = rules.compactMap { $0 as? any BinaryRule.Type }.filter { configuration.isEnabled($0.description) }
    }

    /// The rules among `rules` the inspector runs (for reports' rule lists).
    public static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0 is any BinaryRule.Type }
    }

    /// Audits files (ELF files or archives) and directories (searched for ELF files by magic).
    public func run(paths: [String]) -> CheckResult {
        var result = CheckResult()
        let context: (symbol: [NamePattern], string: [NamePattern])
        do {
            context = try compiledPatterns()
        } catch {
            result.inputErrors.append(error)
            return result
        }
        var files: [String] = []
        for path in paths {
            let (found, errors) = elfFiles(under: path)
            files += found
            result.inputErrors += errors
        }
        let outcomes = files.parallelMap { path -> CheckResult in
            do throws(InputError) {
                return try inspect(file: path, symbolPatterns: context.symbol, stringPatterns: context.string)
            } catch {
                return CheckResult(inputErrors: [error], filesScanned: 1)
            }
        }
        for outcome in outcomes { result.merge(outcome) }
        return result
    }

    /// Runs the rules on already decoded contents (rule examples, tests).
    public func check(_ contents: BinaryContents) throws(InputError) -> [Finding] {
        let patterns = try compiledPatterns()
        return check(contents, symbolPatterns: patterns.symbol, stringPatterns: patterns.string)
    }

    private func inspect(file path: String, symbolPatterns: [NamePattern], stringPatterns: [NamePattern]) throws(InputError) -> CheckResult {
        let file = try ELFFile(path: path)
        var result = CheckResult(inputErrors: file.memberErrors, filesScanned: 1)
        // One archive member that cannot be decoded does not hide the others' findings.
        for image in file.images {
            do throws(InputError) {
                let contents = try BinaryContentsReader.read(image)
                result.findings += check(contents, symbolPatterns: symbolPatterns, stringPatterns: stringPatterns)
            } catch {
                result.inputErrors.append(error)
            }
        }
        return result
    }

    private func check(_ contents: BinaryContents, symbolPatterns: [NamePattern], stringPatterns: [NamePattern]) -> [Finding] {
        var findings: [Finding] = []
        for rule in rules {
            let context = BinaryRuleContext(severity: rule.description.defaultSeverity, symbolPatterns: symbolPatterns, stringPatterns: stringPatterns)
            findings += rule.check(contents, context)
        }
        return findings
    }

    private func compiledPatterns() throws(InputError) -> (symbol: [NamePattern], string: [NamePattern]) {
        let origin = configuration.sourcePath ?? Configuration.fileName
        var symbol: [NamePattern] = []
        for source in configuration.binarySymbolPatterns ?? MockSymbolRule.defaultPatterns {
            symbol.append(try NamePattern(source, caseInsensitive: false, origin: origin))
        }
        var string: [NamePattern] = []
        for source in configuration.binaryStringPatterns ?? FixtureStringRule.defaultPatterns {
            string.append(try NamePattern(source, caseInsensitive: true, origin: origin))
        }
        return (symbol, string)
    }

    /// A file argument is taken as given (a non-ELF file is an error); a directory is walked
    /// (without git: build products are usually ignored) and its ELF files picked by magic; a
    /// directory without any is an error.
    private func elfFiles(under path: String) -> (files: [String], errors: [InputError]) {
        switch FileKind.of(path) {
        case nil: return ([], [InputError(path: path, message: "no such file or directory")])
        case .directory?:
            let enumeration = FileEnumerator(root: path, configuration: configuration, useGit: false).enumerate()
            let elf = enumeration.files.map(\.path).filter { ELFMagic.matches(path: $0) }
            // A release gate pointed at the wrong folder (or at a folder named like a binary)
            // must not pass for want of anything to audit.
            guard !elf.isEmpty else {
                return ([], enumeration.errors + [InputError(path: path, message: "directory holds no ELF files or static archives")])
            }
            return (elf, enumeration.errors)
        default: return ([path], [])
        }
    }
}
