import ScanEngine
import ShipcheckCore

/// One line of `git ls-files --stage -z`: `mode SP object SP stage TAB path NUL`.
struct IndexEntry: Sendable, Hashable {
    var mode: String
    var object: String
    var stage: Int
    var path: String

    /// Regular files only: symlinks hold a target, gitlinks a submodule commit.
    var isRegularFile: Bool { mode == "100644" || mode == "100755" }

    /// Parses the listing; entries whose path is not valid UTF-8 become input errors.
    static func parse(_ output: [UInt8]) -> (entries: [IndexEntry], errors: [InputError]) {
        var entries: [IndexEntry] = []
        var errors: [InputError] = []
        for record in output.split(separator: 0, omittingEmptySubsequences: true) {
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = record[record.startIndex..<tab].split(separator: UInt8(ascii: " "))
            let pathBytes = record[(tab + 1)...]
            guard fields.count == 3, let stage = Int(String(lossyUTF8: fields[2])) else { continue }
            guard let path = String(validating: pathBytes, as: UTF8.self) else {
                errors.append(
                    InputError(
                        path: FileEnumerator.escaped(String(lossyUTF8: pathBytes)),
                        message: "file name is not valid UTF-8; not scanned"))
                continue
            }
            entries.append(
                IndexEntry(
                    mode: String(lossyUTF8: fields[0]), object: String(lossyUTF8: fields[1]), stage: stage, path: path))
        }
        return (entries, errors)
    }

    /// Paths at conflict stages 1–3 and which stages each has.
    static func unmerged(_ entries: [IndexEntry]) -> [String: Set<Int>] {
        var table: [String: Set<Int>] = [:]
        for entry in entries where entry.stage > 0 { table[entry.path, default: []].insert(entry.stage) }
        return table
    }
}
