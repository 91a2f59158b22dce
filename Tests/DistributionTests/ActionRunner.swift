import Foundation
import ShipcheckTestSupport
import Yams

/// Runs a composite action's `run:` steps as a GitHub runner would, on this machine: each step's
/// `if:` decides whether it runs, `${{ … }}` expressions in env, working-directory and `with:`
/// are filled from the inputs (their defaults unless given), `$GITHUB_PATH` additions reach
/// later steps, and `uses:` steps are recorded, not run (they succeed, with empty outputs). An
/// expression or condition it does not know is an error, so the action cannot grow syntax this
/// check silently skips.
struct ActionRunner {
    struct StepResult {
        var id: String
        var status: Int32
        var output: String
        var with: [String: String]
    }

    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    var steps: [[String: Any]]
    var inputs: [String: String]
    var environment: [String: String]
    let scratch: TemporaryDirectory
    let workspace: String

    init(scratch: TemporaryDirectory, workspace: String, inputs given: [String: String]) throws {
        let text = try String(contentsOfFile: Repository.path("action.yml"), encoding: .utf8)
        let action = try Yams.load(yaml: text) as? [String: Any] ?? [:]
        steps = (action["runs"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        var inputs: [String: String] = [:]
        for (name, declaration) in action["inputs"] as? [String: [String: Any]] ?? [:] {
            inputs[name] = given[name] ?? (declaration["default"] as? String) ?? ""
        }
        self.inputs = inputs
        self.scratch = scratch
        self.workspace = workspace
        environment = [
            "GITHUB_ACTION_PATH": Repository.root,
            "GITHUB_WORKSPACE": workspace,
            "RUNNER_TEMP": scratch.path + "/runner-temp",
            "GITHUB_PATH": scratch.path + "/github-path",
            "GITHUB_OUTPUT": scratch.path + "/github-output",
            "GITHUB_STEP_SUMMARY": scratch.path + "/github-step-summary",
            "RUNNER_OS": "Linux",
            "RUNNER_ARCH": "X64"
        ]
        try FileManager.default.createDirectory(atPath: environment["RUNNER_TEMP"]!, withIntermediateDirectories: true)
        for key in ["GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"] {
            _ = FileManager.default.createFile(atPath: environment[key]!, contents: nil)
        }
    }

    /// The steps that ran, in order.
    func run() throws -> [StepResult] {
        var results: [StepResult] = []
        var failed = false
        var outcomes: [String: String] = [:]
        let basePath = ToolchainFreePath.make(in: scratch)
        for (index, step) in steps.enumerated() {
            let id =
                step["id"] as? String ?? (step["uses"] as? String).map {
                    String($0.split(separator: "@")[0].split(separator: "/").last ?? "")
                } ?? "step\(index)"
            guard try condition(step["if"] as? String, failed: failed, outcomes: outcomes) else {
                outcomes[id] = "skipped"
                continue
            }
            outcomes[id] = "success"
            var with: [String: String] = [:]
            for (key, value) in step["with"] as? [String: Any] ?? [:] { with[key] = try expand("\(value)") }
            guard let script = step["run"] as? String else {
                results.append(StepResult(id: id, status: 0, output: "", with: with))
                continue
            }
            var env = environment
            for (key, value) in step["env"] as? [String: Any] ?? [:] { env[key] = try expand("\(value)") }
            let added = (try? String(contentsOfFile: environment["GITHUB_PATH"]!, encoding: .utf8)) ?? ""
            env["PATH"] = (added.split(separator: "\n").reversed().map(String.init) + [basePath]).joined(separator: ":")
            let directory = try (step["working-directory"] as? String).map { try expand($0) } ?? "."
            let result = CommandRunner.run(
                "/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                in: (workspace as NSString).appendingPathComponent(directory), environment: env)
            results.append(StepResult(id: id, status: result.status, output: result.stdout + result.stderr, with: with))
            if result.status != 0 {
                failed = true
                outcomes[id] = "failure"
            }
        }
        return results
    }

    /// The commit `github.sha` stands for.
    static let commit = "0123456789abcdef0123456789abcdef01234567"

    /// `${{ inputs.NAME }}`, `${{ github.action_path }}` and what a cache key is made of
    /// (`runner.os`, `runner.arch`, `github.sha`); anything else is unsupported.
    func expand(_ text: String) throws -> String {
        var result = text
        for match in text.matches(of: /\$\{\{\s*([^}]+?)\s*\}\}/).reversed() {
            let expression = String(match.1)
            let value: String
            if expression.hasPrefix("inputs."), let input = inputs[String(expression.dropFirst("inputs.".count))] {
                value = input
            } else if let context = [
                "github.action_path": Repository.root, "github.sha": Self.commit,
                "runner.os": environment["RUNNER_OS"]!, "runner.arch": environment["RUNNER_ARCH"]!
            ][expression] {
                value = context
            } else if expression.hasPrefix("steps.") {
                value = ""  // outputs of steps this runner does not run (the source build's cache key)
            } else {
                throw Unsupported(description: "expression \(expression)")
            }
            result.replaceSubrange(match.range, with: value)
        }
        return result
    }

    /// `always()`, `inputs.X == 'v'`, `inputs.X != 'v'`, `steps.ID.outcome` and
    /// `steps.ID.outputs.NAME` compared the same way, joined by `&&`; no `if:` runs unless a step
    /// failed.
    func condition(_ text: String?, failed: Bool, outcomes: [String: String]) throws -> Bool {
        guard let text else { return !failed }
        var always = false, holds = true
        for term in text.components(separatedBy: "&&").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if term == "always()" {
                always = true
                continue
            }
            guard let match = term.wholeMatch(of: /([\w.-]+) (==|!=) '([^']*)'/),
                let value = try value(of: String(match.1), outcomes: outcomes)
            else {
                throw Unsupported(description: "condition \(term)")
            }
            holds = holds && ((value == match.3) == (match.2 == "=="))
        }
        return holds && (always || !failed)
    }

    /// An input's value, or a step's outcome or output ("": only `uses:` steps are read, and they do not run).
    private func value(of name: String, outcomes: [String: String]) throws -> String? {
        if name.hasPrefix("inputs.") { return inputs[String(name.dropFirst("inputs.".count))] }
        guard let match = name.wholeMatch(of: /steps\.([\w-]+)\.(outcome|outputs\.[\w-]+)/) else { return nil }
        guard steps.contains(where: { $0["id"] as? String == String(match.1) }) else {
            throw Unsupported(description: "condition on step \(match.1), which has no such id")
        }
        return match.2 == "outcome" ? outcomes[String(match.1)] ?? "skipped" : ""
    }
}

/// The instructions of a Dockerfile (continuation lines joined, comments dropped) and the
/// defaults of its global `ARG`s.
struct Dockerfile {
    var lines: [(instruction: String, arguments: String)] = []
    var argumentDefaults: [String: String] = [:]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let full = (pending + line).trimmingCharacters(in: .whitespaces)
            pending = ""
            guard let space = full.firstIndex(of: " ") else { continue }
            let instruction = String(full[..<space]), arguments = String(full[full.index(after: space)...])
            lines.append((instruction, arguments))
            if instruction == "ARG", !lines.contains(where: { $0.instruction == "FROM" }),
                let equals = arguments.firstIndex(of: "=")
            {
                argumentDefaults[String(arguments[..<equals])] = String(arguments[arguments.index(after: equals)...])
            }
        }
    }

    func instructions(named name: String) -> [String] { lines.filter { $0.instruction == name }.map(\.arguments) }

    /// `${NAME}` filled from `arguments`.
    static func expand(_ text: String, _ arguments: [String: String]) -> String {
        arguments.reduce(text) { $0.replacingOccurrences(of: "${\($1.key)}", with: $1.value) }
    }
}
