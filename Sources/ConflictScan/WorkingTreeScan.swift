import ShipcheckCore

/// The working-tree scope: files on disk, read in parallel.
struct WorkingTreeScan {
    let root: String
    let configuration: Configuration
    let filter: PathFilter

    func run() -> CheckResult {
        var result = CheckResult()
        let enumeration = FileEnumerator(root: root, configuration: configuration).enumerate()
        result.inputErrors += enumeration.errors
        var files = enumeration.files.filter { filter.matches($0.relativePath) }
        addNamedFiles(missingFrom: enumeration.files, to: &files, errors: &result.inputErrors)
        files.removeAll { configuration.conflictAllow.matches($0.relativePath) }

        let repository = enumeration.usedGit ? GitRepository(containing: root) : nil
        // git check-attr over every path costs about as much as the scan itself on a large
        // tree, so it runs alongside: scan at git's default size, then rescan the few paths
        // whose attributes ask for another size and drop those marked binary.
        let paths = files.map(\.relativePath)
        let lookup = repository.map { repository in
            Background { () -> Result<[String: PathAttributes], InputError> in
                Result { () throws(InputError) in try PathAttributes.lookUp(paths, in: repository, cached: false) }
            }
        }
        var outcomes = scan(files, attributes: { _ in .standard })
        switch lookup?.value {
        case .success(let attributes)?:
            let special = files.indices.filter { attributes[files[$0].relativePath].map { $0 != .standard } ?? false }
            let rescanned = scan(special.map { files[$0] }, attributes: { attributes[$0.relativePath] ?? .standard })
            for (index, outcome) in zip(special, rescanned) { outcomes[index] = outcome }
        case .failure(let error)?:
            result.inputErrors.append(error)
        case nil:
            break
        }
        for outcome in outcomes {
            switch outcome {
            case .success(let findings):
                result.findings += findings
                result.filesScanned += 1
            case .failure(let error):
                result.inputErrors.append(error)
            }
        }

        if let repository {
            let builder = FindingBuilder(configuration: configuration)
            do {
                let listing = IndexEntry.parse(try repository.run(["ls-files", "-u", "-z"]))
                let unmerged = IndexEntry.unmerged(listing.entries.filter { filter.matches($0.path) && configuration.isScanned($0.path) })
                result.findings += builder.findings(forUnmerged: unmerged, besides: result.findings)
                result.findings += builder.finding(for: try GitOperation.current(in: repository))
            } catch {
                result.inputErrors.append(error)
            }
        }
        return result
    }

    /// Reads and scans files in parallel.
    private func scan(_ files: [ScannedFile], attributes: @Sendable (ScannedFile) -> PathAttributes) -> [Result<[Finding], InputError>] {
        let check = ContentCheck(builder: FindingBuilder(configuration: configuration))
        let sizeLimit = configuration.maxFileSize
        return files.parallelMap { file in
            Result { () throws(InputError) -> [Finding] in
                let attributes = attributes(file)
                guard !attributes.isBinary else { return [] }
                let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
                return check.check(bytes, path: file.relativePath, attributes: attributes)
            }
        }
    }

    /// Operands naming files git does not list (ignored files, or a plain directory's files
    /// the walk already covers) are still scanned when they exist; ones that do not exist
    /// are input errors.
    private func addNamedFiles(missingFrom listed: [ScannedFile], to files: inout [ScannedFile], errors: inout [InputError]) {
        for operand in filter.unmatched(by: listed.map(\.relativePath)) {
            let path = root == "." ? operand : "\(root)/\(operand)"
            switch FileKind.of(path) {
            case .regular?:
                if configuration.isScanned(operand) { files.append(ScannedFile(relativePath: operand, path: path)) }
            case nil:
                errors.append(InputError(path: operand, message: "no such file or directory"))
            case .directory?:
                break  // nothing git lists under it: nothing to scan
            case let kind?:
                errors.append(InputError(path: operand, message: "not a regular file (\(kind.rawValue)); not scanned"))
            }
        }
    }
}
