import BinaryInspect
import ShipcheckCore

/// A rule about an Android artifact (an APK, an App Bundle, an APK set, an AAR, a library or a
/// folder of them): documentation with examples (which are its tests) and a check over a decoded
/// `AndroidArtifact` only. The leak rules (`BinaryRule`) run on each of its libraries besides.
package protocol AndroidRule: Rule {
    static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding]
}

/// What an Android rule needs beyond the artifact: its severity (the rule's default: the
/// configuration's is applied to every check's findings in one place) and the run's
/// configuration, where a rule with options finds its own.
package struct AndroidRuleContext {
    package var severity: Severity
    package var configuration: Configuration
}

extension AndroidArtifact {
    /// The libraries whose ELF headers were read.
    package var readLibraries: [(library: NativeLibrary, elf: ELFLoadFacts)] {
        libraries.compactMap { library in library.elf.map { (library, $0) } }
    }

    /// The names of the libraries packaged for an ABI (in any module: a device installs the
    /// base and its features' libraries side by side).
    package func packagedNames(for abi: AndroidABI?) -> Set<String> {
        Set(libraries.filter { $0.abi == abi }.map(\.name))
    }

    /// The app's minimum API level, when a manifest states it.
    package var minSdk: Int? { mainManifest?.manifest.minSdk }

    /// How messages name a library: its path and, where its folder says, its ABI.
    package func describe(_ library: NativeLibrary) -> String {
        library.path.isEmpty ? shown("") : library.path
    }
}

extension RuleInput {
    package static let android = RuleInput("Android artifact")
}

extension AndroidRule {
    package static var inputs: Set<RuleInput> { [.android] }
}
