import ShipcheckCore

/// Which Swift files are test code: compiled into test bundles, never archived, so out of
/// scope for the rules about what a release build compiles.
///
/// A file is test code when every target that compiles it is a unit-test or UI-test target
/// (pbxproj `productType` `…bundle.unit-test` / `…bundle.ui-testing`, XcodeGen `type:
/// bundle.unit-test` / `bundle.ui-testing`, a SwiftPM `testTarget`). A file one app or
/// library target also compiles stays in scope. A file no known target compiles falls back to
/// the path conventions: a `Tests/` folder, or a name ending in `Tests.swift`, `.test.swift` or
/// `Spec.swift`.
package struct TestScope: Sendable {
    /// A file or folder a target compiles.
    struct Membership: Sendable {
        var path: String
        var target: String
        /// "unit-test" / "UI-test", nil for a target that may be archived.
        var testKind: String?
        /// The project or manifest that says so.
        var origin: String
    }

    /// By the file or folder they name: a file's owners are found by looking up the file and
    /// each folder above it (a few lookups per file, not a pass over every membership).
    private let membershipsByPath: [String: [Membership]]

    /// `projects`: the scan's Xcode projects and XcodeGen specs; `manifests`: its
    /// `Package.swift` files (path relative to the root, text).
    package init(projects: [XcodeProject], manifests: [(path: String, text: String)]) {
        var memberships: [Membership] = []
        for project in projects {
            for target in project.targets {
                memberships += target.sources.map {
                    Membership(path: $0, target: target.name, testKind: target.testKind, origin: project.file)
                }
            }
        }
        for manifest in manifests {
            let directory = XcodePath.directory(of: manifest.path)
            let package = PackageTargets(manifest.text)
            for target in package.targets {
                let path = XcodePath.resolve(target.path, relativeTo: directory)
                memberships.append(
                    Membership(
                        path: path, target: target.name, testKind: target.isTest ? "test" : nil, origin: manifest.path))
            }
        }
        membershipsByPath = Dictionary(grouping: memberships, by: \.path)
    }

    /// Why `path` (relative to the root) is test code — "target AppTests is a unit-test target
    /// (App.xcodeproj/project.pbxproj)", "path convention: a Tests/ folder" — or nil when a
    /// release build may compile it.
    package func reason(for path: String) -> String? {
        var owners = (membershipsByPath["."] ?? []) + (membershipsByPath[path] ?? [])
        var folderEnd = path.startIndex
        while let slash = path[folderEnd...].firstIndex(of: "/") {
            owners += membershipsByPath[String(path[..<slash])] ?? []
            folderEnd = path.index(after: slash)
        }
        if !owners.isEmpty {
            guard owners.allSatisfy({ $0.testKind != nil }), let owner = owners.first, let kind = owner.testKind else {
                return nil
            }
            return "target \(owner.target) is a \(kind == "test" ? "SwiftPM test" : kind) target (\(owner.origin))"
        }
        return Self.conventionReason(for: path)
    }

    /// The path conventions for files no known target compiles: SwiftPM's `Tests/` and
    /// Xcode's `AppTests/` / `AppUITests/` folders, and test file names.
    package static func conventionReason(for path: String) -> String? {
        let components = path.split(separator: "/")
        if let folder = components.dropLast().first(where: { $0.hasSuffix("Tests") }) {
            return folder == "Tests"
                ? "path convention: a Tests/ folder" : "path convention: a *Tests/ folder (\(folder))"
        }
        let name = components.last ?? ""
        for suffix in ["Tests.swift", ".test.swift", "Spec.swift"]
        where name.hasSuffix(suffix) && name.count > suffix.count {
            return "path convention: a *\(suffix) file name"
        }
        return nil
    }
}

/// The targets a `Package.swift` declares, read from its text: each `.target`,
/// `.executableTarget`, `.testTarget` (and `.macro`, `.plugin`) with its `name:` and `path:`
/// (default `Sources/<name>`, `Tests/<name>` for a test target). Manifests computing names or
/// paths are read as far as literals go.
struct PackageTargets {
    struct Target: Equatable {
        var name: String
        var path: String
        var isTest: Bool
    }

    var targets: [Target] = []

    init(_ text: String) {
        let kinds = [
            (".testTarget(", true), (".target(", false), (".executableTarget(", false), (".macro(", false),
            (".plugin(", false)
        ]
        // Each kind's next occurrence, searched again only once passed: one pass over the text.
        var next = kinds.map { text.range(of: $0.0) }
        var searchFrom = text.startIndex
        while true {
            for index in next.indices where next[index].map({ $0.lowerBound < searchFrom }) == true {
                next[index] = text.range(of: kinds[index].0, range: searchFrom..<text.endIndex)
            }
            guard
                let kind = next.indices.filter({ next[$0] != nil }).min(by: {
                    next[$0]!.lowerBound < next[$1]!.lowerBound
                }),
                let open = next[kind]
            else { break }
            let arguments = Self.balanced(text, from: open.upperBound)
            // Past the arguments: a `.target(name:)` among a target's dependencies is no target.
            searchFrom = arguments.endIndex
            guard let name = Self.literal(after: "name:", in: arguments) else { continue }
            let isTest = kinds[kind].1
            let path = Self.literal(after: "path:", in: arguments) ?? "\(isTest ? "Tests" : "Sources")/\(name)"
            targets.append(Target(name: name, path: path, isTest: isTest))
        }
    }

    /// The text up to the parenthesis closing the one just opened (strings skipped).
    private static func balanced(_ text: String, from start: String.Index) -> Substring {
        var depth = 1, inString = false, index = start
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 { return text[start..<index] }
            }
            if index < text.endIndex { index = text.index(after: index) }
        }
        return text[start...]
    }

    /// The string literal right after `label` at the top level of `arguments`.
    private static func literal(after label: String, in arguments: Substring) -> String? {
        var depth = 0, inString = false, index = arguments.startIndex
        while index < arguments.endIndex {
            let character = arguments[index]
            if inString {
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" || character == "[" {
                depth += 1
            } else if character == ")" || character == "]" {
                depth -= 1
            } else if depth == 0, arguments[index...].hasPrefix(label) {
                let rest = arguments[arguments.index(index, offsetBy: label.count)...].drop {
                    $0 == " " || $0 == "\n" || $0 == "\t"
                }
                guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { return nil }
                return String(rest[rest.index(after: rest.startIndex)..<end])
            }
            index = arguments.index(after: index)
        }
        return nil
    }
}
