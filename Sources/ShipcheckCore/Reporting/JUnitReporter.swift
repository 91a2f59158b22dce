/// JUnit XML: one test case per finding, named `path:line rule-id` (made unique where two
/// findings share a line), so GitLab and Jenkins, which key cases by class and name, keep
/// every one. Input errors are `<error>` cases; a clean run is one passing case.
package struct JUnitReporter: Reporter {
    package init() {}

    package func write(_ report: Report, to sink: ReportSink) {
        // The counts head the document: known before the first case is written.
        let failures = report.findings.count(where: { $0.severity >= report.failingSeverity })
        let errors = report.inputErrors.count
        let tests = max(report.findings.count + errors, 1)
        sink.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="shipcheck" tests="\(tests)" failures="\(failures)" errors="\(errors)">
              <testsuite name="shipcheck" tests="\(tests)" failures="\(failures)" errors="\(errors)" skipped="\(report.findings.count - failures)">

            """)
        var used: Set<String> = []
        func uniqueName(_ base: String) -> String {
            var name = base, counter = 2
            while used.contains(name) {
                name = "\(base) #\(counter)"
                counter += 1
            }
            used.insert(name)
            return name
        }
        for finding in report.findings {
            let line = finding.location.line
            let place = line.map { "\(finding.location.path):\($0)" } ?? finding.location.path
            let name = uniqueName("\(place) \(finding.ruleID)")
            var body = finding.message
            if let snippet = finding.snippet { body += "\n\n" + snippet }
            if let hint = finding.fixHint { body += "\n\nFix: " + hint }
            let failing = finding.severity >= report.failingSeverity
            let lineAttribute = line.map { " line=\"\($0)\"" } ?? ""
            let element = failing ? "failure" : "skipped"
            sink.write(
                """
                    <testcase classname="shipcheck.\(xml(finding.ruleID))" name="\(xml(name))" file="\(xml(finding.location.path))"\(lineAttribute)>
                      <\(element) message="\(xml(finding.message))" type="\(finding.severity.rawValue)">\(xml(body))</\(element)>
                    </testcase>

                """)
        }
        for error in report.inputErrors {
            let name = uniqueName("\(error.path) input-error")
            sink.write(
                """
                    <testcase classname="shipcheck.input" name="\(xml(name))" file="\(xml(error.path))">
                      <error message="\(xml(error.message))" type="input-error">\(xml(error.description))</error>
                    </testcase>

                """)
        }
        if tests > report.findings.count + errors {
            sink.write("    <testcase classname=\"shipcheck\" name=\"no findings\"/>\n")
        }
        sink.write("  </testsuite>\n</testsuites>\n")
    }

    /// Escapes XML text and attribute values; drops characters XML 1.0 cannot carry.
    func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                let value = scalar.value
                if value < 0x20 || (0xFFFE...0xFFFF).contains(value) || (0xD800...0xDFFF).contains(value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
