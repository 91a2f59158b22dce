/// What one target declares: the DEBUG-only names, and every name release code declares.
/// A name in both is ambiguous (an `#if DEBUG … #else` pair, a release overload, a
/// same-named member of another type) and never reported: name matching cannot tell which
/// one a reference means.
struct DebugOnlyIndex: Sendable {
    /// DEBUG-only declarations by name, in path and line order.
    private(set) var debugOnly: [String: [DeclaredName]] = [:]
    private(set) var releaseNames: Set<String> = []

    mutating func add(_ names: [DeclaredName]) {
        for name in names {
            if name.debugOnly {
                debugOnly[name.name, default: []].append(name)
            } else {
                releaseNames.insert(name.name)
            }
        }
    }

    mutating func sort() {
        for key in debugOnly.keys { debugOnly[key]!.sort { ($0.path, $0.line) < ($1.path, $1.line) } }
    }

    /// Names only DEBUG builds declare: what release code must not mention.
    var candidateNames: [String] { debugOnly.keys.filter { !releaseNames.contains($0) }.sorted() }

    /// The DEBUG-only declarations of `name` owned by `owner` (nil: top level), unless release
    /// code declares the name too.
    func declarations(of name: String, owner: String?) -> [DeclaredName] {
        guard !releaseNames.contains(name) else { return [] }
        return debugOnly[name]?.filter { $0.owner == owner } ?? []
    }

    func isCandidate(_ name: String) -> Bool { debugOnly[name] != nil && !releaseNames.contains(name) }
}
