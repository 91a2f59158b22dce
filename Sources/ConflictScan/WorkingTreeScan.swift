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
        var lookedUp: [String: PathAttributes] = [:]
        if let repository {
            do { lookedUp = try PathAttributes.lookUp(files.map(\.relativePath), in: repository, cached: false) } catch {
                result.inputErrors.append(error)
            }
        }
        let attributes = lookedUp
        let check = ContentCheck(builder: FindingBuilder(configuration: configuration))
        let sizeLimit = configuration.maxFileSize
        let outcomes = files.parallelMap { file -> Result<[Finding], InputError> in
            Result { () throws(InputError) -> [Finding] in
                let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
                return check.check(bytes, path: file.relativePath, attributes: attributes[file.relativePath] ?? .standard)
            }
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
