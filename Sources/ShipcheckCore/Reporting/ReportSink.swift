import ScanEngine

/// The one way out of a command: what it prints — a report in any format, a query run's text,
/// a symbol listing, a fix's diff — goes to standard output, or to the file `--output` names,
/// written as it is made and put in place atomically by `finish()`. Bytes pass through
/// `ByteOutput`'s buffer, so no output is ever held whole.
package final class ReportSink {
    package let output: ByteOutput
    /// The file being written, when there is one.
    private let file: AtomicFile.Writer?

    /// Standard output when `path` is nil; else the file at `path`, replaced atomically on
    /// `finish()` (left as it was when the sink is dropped unfinished).
    package convenience init(path: String?) throws(InputError) {
        guard let path else {
            self.init(output: ByteOutput.standardOutput(), file: nil)
            return
        }
        let writer = try AtomicFile.Writer(path: path)
        self.init(output: writer.output, file: writer)
    }

    private init(output: ByteOutput, file: AtomicFile.Writer?) {
        self.output = output
        self.file = file
    }

    package static func standardOutput() -> ReportSink { ReportSink(output: ByteOutput.standardOutput(), file: nil) }

    /// A sink that keeps what it is given (`text`), for output wanted whole.
    package static func memory() -> ReportSink { ReportSink(output: ByteOutput.memory(), file: nil) }

    package func write(_ text: String) { output.write(text) }

    /// Puts the file in place, or writes out what standard output still holds. A reader that
    /// has gone (`shipcheck … | head`) ends standard output quietly, as it ends `nm`'s; any
    /// other failed write (a full disk behind `> report.json`) is an input error, so a report
    /// is never lost without a word.
    package func finish() throws(InputError) {
        if let file {
            try file.commit()
            return
        }
        do throws(InputError) {
            try output.flush()
        } catch {
            if !output.readerLeft { throw error }
        }
    }

    /// What a memory sink has been given.
    package var text: String { String(decoding: output.written, as: UTF8.self) }
}
