import BinaryInspect
import ScanEngine
import ShipcheckCore

extension Frontend {
    /// `shipcheck symbols`: the symbols of `files` (ELF, Mach-O, static archives) in `format`,
    /// written to `output` as they are made; a file, member or slice that cannot be read is
    /// handed to `reportError` as it is met and the others are listed. Files are opened through
    /// `source`. Returns the exit code: 2 when anything could not be read, else 0.
    package static func listSymbols(
        _ files: [String], options: SymbolListOptions, format: SymbolFormat, into output: ByteOutput,
        source: any FileSource = DiskFileSource(), reportError: (InputError) -> Void
    ) -> Int32 {
        let listing = SymbolListingWriter(format: format, showPath: files.count > 1) { output.write($0) }
        var failed = false
        for path in files {
            do throws(InputError) {
                var memberErrors: [InputError] = []
                let file = try source.opening(path) { path throws(InputError) in
                    try BinaryFile(path: path, architecture: options.architecture)
                }
                try listing.add(file, options: options, memberErrors: &memberErrors)
                for error in memberErrors { reportError(error) }
                failed = failed || !memberErrors.isEmpty
            } catch {
                reportError(error)
                failed = true
            }
        }
        listing.finish()
        return ExitStatus.of(inputErrors: failed, failsGate: false)
    }
}
