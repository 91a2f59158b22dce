/// A unified diff (`diff -u` shape, three lines of context) between two texts, by Myers'
/// O(ND) algorithm on lines: small and exact for the few-line edits `--fix` makes.
package enum UnifiedDiff {
    enum Operation: Equatable {
        case keep(Substring), delete(Substring), insert(Substring)
    }

    package static func render(original: String, modified: String, path: String, context: Int = 3) -> String {
        let old = lines(original), new = lines(modified)
        let operations = diff(old, new)
        guard operations.contains(where: { if case .keep = $0 { false } else { true } }) else { return "" }
        var output = "--- a/\(path)\n+++ b/\(path)\n"
        // Indices of changed operations, grouped into hunks whose gaps exceed 2 * context.
        let changed = operations.indices.filter { if case .keep = operations[$0] { false } else { true } }
        var groups: [[Int]] = []
        for index in changed {
            if let last = groups.last?.last, index - last <= 2 * context {
                groups[groups.count - 1].append(index)
            } else {
                groups.append([index])
            }
        }
        // Line numbers at the start of each operation.
        var oldLine = [Int](), newLine = [Int]()
        var o = 1, n = 1
        for operation in operations {
            oldLine.append(o)
            newLine.append(n)
            switch operation {
            case .keep:
                o += 1
                n += 1
            case .delete: o += 1
            case .insert: n += 1
            }
        }
        for group in groups {
            let start = max(0, group.first! - context), end = min(operations.count, group.last! + context + 1)
            let slice = operations[start..<end]
            let oldCount = slice.filter { if case .insert = $0 { false } else { true } }.count
            let newCount = slice.filter { if case .delete = $0 { false } else { true } }.count
            let oldStart = oldCount == 0 ? oldLine[start] - 1 : oldLine[start]
            let newStart = newCount == 0 ? newLine[start] - 1 : newLine[start]
            output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for operation in slice {
                switch operation {
                case .keep(let line): output += emit(" ", line)
                case .delete(let line): output += emit("-", line)
                case .insert(let line): output += emit("+", line)
                }
            }
        }
        return output
    }

    private static func emit(_ prefix: String, _ line: Substring) -> String {
        line.hasSuffix("\n") ? prefix + line : prefix + line + "\n\\ No newline at end of file\n"
    }

    /// Lines with their terminators, so a missing final newline is a difference.
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        while start < text.endIndex {
            guard let newline = text[start...].firstIndex(of: "\n") else {
                result.append(text[start...])
                break
            }
            result.append(text[start...newline])
            start = text.index(after: newline)
        }
        return result
    }

    static func diff(_ a: [Substring], _ b: [Substring]) -> [Operation] {
        let n = a.count, m = b.count, limit = n + m
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        search: for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset]))
                    ? v[k + 1 + offset] : v[k - 1 + offset] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[k + offset] = x
                if x >= n, y >= m { break search }
            }
        }
        var operations: [Operation] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset])) ? k + 1 : k - 1
            let previousX = v[previousK + offset], previousY = previousX - previousK
            while x > previousX, y > previousY {
                operations.append(.keep(a[x - 1]))
                x -= 1
                y -= 1
            }
            if d > 0 {
                if x == previousX {
                    operations.append(.insert(b[y - 1]))
                    y -= 1
                } else {
                    operations.append(.delete(a[x - 1]))
                    x -= 1
                }
            }
        }
        return operations.reversed()
    }
}
