import ShipcheckCore

extension Reporter {
    /// The report as the command writes it, kept whole for a test to read.
    package func render(_ report: Report) -> String {
        let sink = ReportSink.memory()
        write(report, to: sink)
        return sink.text
    }
}
