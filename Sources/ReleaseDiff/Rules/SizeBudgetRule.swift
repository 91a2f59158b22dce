import ScanEngine
import ShipcheckCore

/// Growth over the size budgets `.shipcheck.yml` sets, in total or for a part.
package enum SizeBudgetRule: PreviousReleaseRule, ConfigurableRule {
    /// `rules.previous-size-budget`: `total` and `download` (the whole release's install and
    /// download growth) and `parts` (a part's install growth, by the name the size table gives
    /// it: `dex`, `native libraries (arm64-v8a)`, `framework Kit.framework`), each in bytes
    /// (`500 KB`, `2 MB`, `1500000`) or percent of the previous size (`5%`).
    package struct Options: RuleOptions, Hashable {
        package static let keys = ["total", "download", "parts"]

        package var total: Budget?
        package var download: Budget?
        package var parts: [String: Budget] = [:]

        package init() {}

        package var isEmpty: Bool { total == nil && download == nil && parts.isEmpty }

        package mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError) {
            let qualified = mapping.context.isEmpty ? key : "\(mapping.context).\(key)"
            func budget(_ text: String, line: Int?) throws(InputError) -> Budget {
                guard let budget = Budget(text) else {
                    throw InputError(
                        path: mapping.file, line: line,
                        message:
                            "'\(qualified)': \(text) is not a size budget (bytes, KB, MB, GB, or a percentage such as 5%)"
                    )
                }
                return budget
            }
            switch option {
            case "total": total = try budget(mapping.string(key) ?? "", line: mapping.line(of: key))
            case "download": download = try budget(mapping.string(key) ?? "", line: mapping.line(of: key))
            default:
                guard let inner = try mapping.mapping(key) else { return }
                for (name, node) in inner.mapping {
                    guard let part = name.scalar?.string, let text = node.scalar?.string else {
                        throw InputError(
                            path: mapping.file, line: node.mark?.line,
                            message: "'\(qualified)' must map part names to budgets")
                    }
                    parts[part] = try budget(text, line: node.mark?.line)
                }
            }
        }
    }

    /// How much a size may grow: bytes, or a percentage of the previous release's size.
    package enum Budget: Sendable, Hashable, CustomStringConvertible {
        case bytes(UInt64)
        case percent(Double)

        /// `5%`, `2.5 %`, `500 KB`, `2MB`, `1 GB`, `1500000` (KB and MB are 1,000 and 1,000,000
        /// bytes, as the stores show sizes).
        package init?(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("%") {
                guard let value = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)), value >= 0 else {
                    return nil
                }
                self = .percent(value)
                return
            }
            let units: [(String, UInt64)] = [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("B", 1)]
            for (unit, factor) in units where trimmed.uppercased().hasSuffix(unit) {
                let number = trimmed.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
                guard let value = Double(number), value >= 0 else { return nil }
                self = .bytes(UInt64(value * Double(factor)))
                return
            }
            guard let value = UInt64(trimmed) else { return nil }
            self = .bytes(value)
        }

        package var description: String {
            switch self {
            case .bytes(let count): ByteCount.text(count)
            case .percent(let value): "\(value.formatted())%"
            }
        }

        /// The growth allowed from `previous` bytes.
        func allowance(from previous: UInt64) -> UInt64 {
            switch self {
            case .bytes(let count): count
            case .percent(let value): UInt64((Double(previous) * value / 100).rounded(.down))
            }
        }
    }

    package static let description = RuleDescription(
        id: "previous-size-budget",
        summary: "The release grew more than a size budget set in .shipcheck.yml allows (in total or for a part).",
        rationale: """
            Size creeps a release at a time: a resource added uncompressed, an SDK that pulls in \
            another, a library built without stripping. Download size matters to conversion \
            (the App Store asks before downloading apps over 200 MB on cellular) and install \
            size to users with full devices. The budgets are growth limits against the previous \
            release, in bytes or percent: rules.previous-size-budget.total (install size), \
            .download (download size) and .parts (install size of a part, named as the size \
            table names it). Sizes are each file's as the artifact stores it (download: \
            compressed in a zip) and installed (uncompressed). Without budgets the rule reports \
            nothing.
            """,
        defaultSeverity: .error,
        fix: "bring the release under budget, or raise the budget in .shipcheck.yml if the growth is intended",
        triggeringExamples: [
            RuleExample(
                """
                android
                budget total=10%
                manifest AndroidManifest.xml package=com.example versionCode=1
                size classes.dex 400000 1000000
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2
                ↓size classes.dex 460000 1200000
                """),
            RuleExample(
                """
                apple
                budget part=framework Kit.framework:100 KB
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example;}
                size Payload/App.app/Frameworks/Kit.framework/Kit 300000 900000
                ---
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example;}
                ↓size Payload/App.app/Frameworks/Kit.framework/Kit 350000 1050000
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                android
                budget total=10%
                manifest AndroidManifest.xml package=com.example versionCode=1
                size classes.dex 400000 1000000
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2
                size classes.dex 420000 1090000
                """),
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1
                size classes.dex 400000 1000000
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2
                size classes.dex 800000 2000000
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let options = context.configuration.options(for: Self.self)
        var over: [(what: String, growth: UInt64, budget: Budget, part: String?)] = []
        let total = comparison.total
        func check(_ what: String, old: UInt64, new: UInt64, budget: Budget?, part: String? = nil) {
            guard let budget, new > old, new - old > budget.allowance(from: old) else { return }
            over.append((what, new - old, budget, part))
        }
        check("install size", old: total.old.install, new: total.new.install, budget: options.total)
        check("download size", old: total.old.download, new: total.new.download, budget: options.download)
        for row in comparison.parts {
            check(row.name, old: row.old.install, new: row.new.install, budget: options.parts[row.name], part: row.name)
        }
        let family = comparison.new.family
        return over.map { item in
            // The parts that grew most, and the file that grew most (where the finding points).
            let grown = comparison.parts.filter { $0.installGrowth > 0 && (item.part == nil || $0.name == item.part) }
                .sorted { $0.installGrowth > $1.installGrowth }.prefix(3)
            let largest = comparison.largestGrowth.first {
                item.part == nil || SizeParts.part(of: $0.name, in: family) == item.part
            }
            let parts = grown.map { "\($0.name) +\(ByteCount.text(UInt64($0.installGrowth)))" }.joined(separator: ", ")
            return comparison.finding(
                description, context.severity, at: largest?.name ?? "",
                message:
                    "\(item.what) grew by \(ByteCount.text(item.growth)) since \(comparison.previousName), over its budget of \(item.budget)\(parts.isEmpty ? "" : " (grew most: \(parts))")",
                fix: "bring \(item.what) under budget, or raise rules.previous-size-budget in .shipcheck.yml",
                identity: "size-budget \(item.what)")
        }
    }
}

/// Byte counts as the stores show them: decimal units (`1.2 MB`).
package enum ByteCount {
    package static func text(_ count: UInt64) -> String {
        let units: [(UInt64, String)] = [(1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "KB")]
        for (factor, unit) in units where count >= factor {
            let value = Double(count) / Double(factor)
            return "\(value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)) \(unit)"
        }
        return "\(count) B"
    }

    /// A signed difference: `+1.2 MB`, `-300 B`, `0`.
    package static func signed(_ difference: Int64) -> String {
        difference == 0 ? "0" : (difference > 0 ? "+" : "-") + text(difference.magnitude)
    }
}
