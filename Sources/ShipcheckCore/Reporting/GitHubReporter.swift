/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`, which
/// the runner turns into annotations on the pull request's diff.
package struct GitHubReporter: Reporter {
    package init() {}

    package func write(_ report: Report, to sink: ReportSink) {
        for finding in report.findings {
            let command: String
            switch finding.severity {
            case .error: command = "error"
            case .warning: command = "warning"
            case .note: command = "notice"
            }
            var properties = [("file", finding.location.path)]
            if case .source(let location) = finding.location {
                properties.append(("line", "\(location.line)"))
                if let endLine = location.endLine { properties.append(("endLine", "\(endLine)")) }
                properties.append(("col", "\(location.column)"))
                if let endColumn = location.endColumn, location.endLine == nil || location.endLine == location.line {
                    properties.append(("endColumn", "\(endColumn)"))
                }
            }
            properties.append(("title", "shipcheck \(finding.ruleID)"))
            var message = finding.message
            if case .binary(let binary) = finding.location, let symbol = binary.symbol {
                message += "\nsymbol: \(symbol)"
            }
            if let hint = finding.fixHint { message += "\nfix: \(hint)" }
            sink.write(line(command, properties, message))
        }
        for error in report.inputErrors {
            sink.write(line("error", [("file", error.path), ("title", "shipcheck input error")], error.message))
        }
        let errors = report.count(of: .error), warnings = report.count(of: .warning), notes = report.count(of: .note)
        sink.write(
            "shipcheck: \(errors) errors, \(warnings) warnings, \(notes) notes, \(report.inputErrors.count) inputs not processed\n"
        )
    }

    /// One workflow command and its line break.
    private func line(_ command: String, _ properties: [(String, String)], _ message: String) -> String {
        let rendered = properties.map { "\($0.0)=\(Self.escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(command) \(rendered)::\(Self.escapeData(message))\n"
    }

    /// Message text: `%`, CR and LF are encoded (the runner decodes them).
    package static func escapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Property values additionally encode `:` and `,`, which delimit properties.
    package static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
