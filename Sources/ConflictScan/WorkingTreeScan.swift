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
        // Operands the walk already reported (a FIFO, a symlink loop) are not reported twice.
        addNamedFiles(missingFrom: enumeration.files.map(\.relativePath) + enumeration.errors.map(\.path),
                      to: &files, errors: &result.inputErrors)
        files.removeAll { configuration.conflictAllow.matches($0.relativePath) }

        let repository = enumeration.usedGit ? GitRepository(containing: root) : nil
        // Scan everything at git's default size first, then ask git for the attributes of only
        // the files holding a marker-like run (see AttributeSources), and rescan those whose
        // attributes set another size or mark them binary.
        var searchSize = ContentScanner.defaultMarkerSize
        if let repository {
            let attributeFiles = enumeration.files.filter { $0.relativePath == ".gitattributes" || $0.relativePath.hasSuffix("/.gitattributes") }
            do { searchSize = try AttributeSources.smallestMarkerSize(in: repository, untracked: attributeFiles.map(\.path)) } catch {
                result.inputErrors.append(error)
            }
        }
        var outcomes = scan(files, searchSize: searchSize) { _ in .standard }
        let candidates = outcomes.indices.filter { (try? outcomes[$0].get())?.hasMarkerLines ?? false }
        if let repository, !candidates.isEmpty {
            do {
                let attributes = try PathAttributes.lookUp(candidates.map { files[$0].relativePath }, in: repository, cached: false)
                let special = candidates.filter { attributes[files[$0].relativePath].map { $0 != .standard } ?? false }
                let rescanned = scan(special.map { files[$0] }, searchSize: nil) { attributes[$0.relativePath] ?? .standard }
                for (index, outcome) in zip(special, rescanned) { outcomes[index] = outcome }
            } catch {
                result.inputErrors.append(error)
            }
        }
        for outcome in outcomes {
            switch outcome {
            case .success(let scanned):
                result.findings += scanned.findings
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
    private func scan(_ files: [ScannedFile], searchSize: Int?,
                      attributes: @escaping @Sendable (ScannedFile) -> PathAttributes) -> [Result<(findings: [Finding], hasMarkerLines: Bool), InputError>] {
        let check = ContentCheck(builder: FindingBuilder(configuration: configuration))
        let sizeLimit = configuration.maxFileSize
        return files.parallelMap { file in
            Result { () throws(InputError) -> (findings: [Finding], hasMarkerLines: Bool) in
                let attributes = attributes(file)
                guard !attributes.isBinary else { return ([], false) }
                return try SafeFileReader.withContents(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit) { buffer in
                    check.check(buffer, path: file.relativePath, attributes: attributes, searchSize: searchSize)
                }
            }
        }
    }

    /// Operands naming files git does not list (ignored files, or a plain directory's files
    /// the walk already covers) are still scanned when they exist; ones that do not exist
    /// are input errors.
    private func addNamedFiles(missingFrom listed: [String], to files: inout [ScannedFile], errors: inout [InputError]) {
        for operand in filter.unmatched(by: listed) {
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
