/// The modules of the Swift toolchain's own runtime libraries: the standard library and the
/// modules shipped beside it (concurrency, distributed actors, string processing, observation…)
/// and swift-corelibs' Foundation and Dispatch, which apps package with their own code on Linux
/// and Android (`libswiftDistributed.so`, `libFoundationEssentials.so`). What they declare is
/// the language's API (`Distributed._DistributedActorStub`), not a product's test code.
enum ToolchainModules {
    static let names: Set<String> = [
        "Swift", "_Concurrency", "Distributed", "_StringProcessing", "_RegexParser", "RegexBuilder", "Observation",
        "Synchronization", "_Differentiation", "_Volatile", "_Builtin_float", "SwiftOnoneSupport", "Cxx", "CxxStdlib",
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch"
    ]

    /// Whether a full type name (`Distributed._DistributedActorStub`) lies in one of them.
    static func declares(_ typeName: String) -> Bool {
        names.contains(String(typeName.prefix { $0 != "." }))
    }
}
