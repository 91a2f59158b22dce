import AndroidArtifacts
import BinaryInspect
import ConflictScan
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import SourceScan
import StorePreflight
import SwiftSyntax
import XcodeProject

/// The fuzz entry points: each feeds one input through one reader the way shipcheck does.
/// `Fuzz/` (libFuzzer, sanitizers) drives them with generated inputs; `make test` replays every
/// input kept under `Tests/Fixtures/fuzz-regressions/<target>/` through the same functions.
///
/// An entry point returns normally for any input (errors are `InputError`s, as in the tool); a
/// crash, trap, sanitizer report or hang is the bug.
public enum HostileInputTarget: String, CaseIterable, Sendable {
    /// ELF reader + Swift-metadata decoder + symbol listing (objects, executables, archives).
    case elf
    /// Mach-O reader (thin, universal, archives) + fixups + Swift / Objective-C metadata + symbols.
    case macho
    /// Untrusted bundle metadata: a provisioning profile (CMS envelope + property list), a code
    /// signature (SuperBlob → XML / DER entitlements), a property list, a privacy manifest (XML
    /// or binary, read and validated), and the same bytes as the Info.plists and privacy manifest
    /// of an app checked by every bundle rule.
    case bundle
    /// The conflict-block scanner over a file's bytes.
    case conflicts
    /// Swift sources parsed, then every `#if` clause's contents judged by the release evaluator;
    /// and the same bytes through the privacy rules' lexer (`SourceAPIScanner`, which judges each
    /// directive line with the same flags) as Swift and as C-family source.
    case ifconfig
    /// `project.pbxproj` reader, then the effective settings of every configuration.
    case pbxproj
    /// `.xcconfig` reader (with `#include`).
    case xcconfig
    /// `.shipcheck.yml` loader.
    case config
    /// An Android manifest through each of its readers (binary XML, aapt2's protobuf XML, text)
    /// into the manifest facts, the bytes as a bundle's `BundleConfig.pb`, and the bytes as an
    /// `.apk` checked by every Android and leak rule (zip listing, entry offsets, libraries).
    case android
    /// One symbol name through the demanglers (the Swift runtime's, guarded; `__cxa_demangle`)
    /// and the simplified rendering: names come straight from binaries no one vetted.
    case demangler

    /// Runs one input. Readers that take a path get a scratch file holding the bytes. True when
    /// some reader took the input for what it reads (a binary, a profile or property list, a
    /// manifest, a text file, a mangled name), false when every one refused it with an error.
    @discardableResult
    public func run(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .elf: Self.runELF(bytes)
        case .macho: Self.runMachO(bytes)
        case .bundle: Self.runBundleMetadata(bytes)
        case .conflicts: Self.runConflicts(bytes)
        case .ifconfig: Self.runIfConfig(bytes)
        case .pbxproj: Self.runPBXProj(bytes)
        case .xcconfig: Self.runXCConfig(bytes)
        case .config: Self.runConfig(bytes)
        case .demangler: Self.runDemangler(bytes)
        case .android: Self.runAndroid(bytes)
        }
    }

    /// The binary audit as `shipcheck binary` runs it (with the built-in patterns, compiled once
    /// for every input as a run's configuration compiles them once for all its files).
    private static let inspector = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)

    /// A file as `shipcheck binary` and `shipcheck symbols` read it (mapped, then every image,
    /// member and table): opened once for the audit, the symbol table's rows and the dynamic
    /// table's JSON listing, as each command opens it once.
    private static func runELF(_ bytes: [UInt8]) -> Bool {
        let path = ScratchFile.write(bytes, name: "input.o")
        guard let file = try? BinaryFile(path: path) else { return false }
        audit(file)
        return true
    }

    /// The audit, then the listings as `shipcheck symbols` writes them: the symbol table as
    /// text with names demangled (its default), the dynamic table as JSON with its names as
    /// they are (CSV shares their loop). Each name is demangled once per input, not twice: the
    /// demangler, its simplified rendering and the C++ demangler are the `demangler` target's,
    /// which feeds them names straight.
    private static func audit(_ file: BinaryFile) {
        _ = inspector.inspect(file)
        var options = SymbolListOptions()
        options.demangle = .full
        list(file, format: .text, options: options)
        options.table = .dynsym
        options.demangle = .none
        list(file, format: .json, options: options)
    }

    private static let androidInspector = AndroidInspector(configuration: Configuration(), rules: RuleRegistry.rules)

    private static func runAndroid(_ bytes: [UInt8]) -> Bool {
        let manifests = [
            (try? AndroidManifest(BinaryXMLReader.read(bytes))) != nil,
            (try? AndroidManifest(ProtoXMLReader.read(bytes))) != nil,
            (try? AndroidManifest(TextXMLReader.read(bytes))) != nil,
            (try? ProtoXMLReader.bundleConfig(bytes)) != nil
        ]
        let artifact = androidInspector.inspect(ScratchFile.write(bytes, name: "input.apk"), with: inspector)
        return manifests.contains(true) || artifact.inputErrors.isEmpty
    }

    private static func list(_ file: BinaryFile, format: SymbolFormat, options: SymbolListOptions) {
        var errors: [InputError] = []
        let writer = SymbolListingWriter(format: format, showPath: true) { _ in }
        try? writer.add(file, options: options, memberErrors: &errors)
        writer.finish()
    }

    /// From memory (as an entry read out of a zip is): the audit and both listings, then one
    /// slice (`--arch arm64`) where there are several to choose from; a thin file's one image
    /// was audited already, so only the choice is made.
    private static func runMachO(_ bytes: [UInt8]) -> Bool {
        guard let file = try? BinaryFile(bytes: bytes, path: "input") else { return false }
        audit(file)
        if file.images.count > 1, let slice = try? BinaryFile(bytes: bytes, path: "input", architecture: "arm64") {
            _ = inspector.inspect(slice)
        }
        return true
    }

    private static func runBundleMetadata(_ bytes: [UInt8]) -> Bool {
        let read = [
            (try? ProvisioningProfile.parse(bytes)) != nil,
            (try? CodeSignature.entitlements(in: bytes)) != nil,
            (try? PropertyListSummary.parse(bytes, what: "input")) != nil
        ]
        _ = PrivacyManifest(bytes: bytes)
        checkAsBundleMetadata(bytes)
        return read.contains(true)
    }

    /// An app with an extension and a framework whose Info.plists and privacy manifest are the
    /// input (whatever types its keys hold), through every bundle rule — the pre-flight rules
    /// read these documents' values as they find them.
    private static let bundleWithoutMetadata = try! BundleContents(
        example: """
            image Payload/App.app/App arm64 ios 16.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530
            import stat NSFileModificationDate OBJC_CLASS_$_NSUserDefaults
            selector systemUptime activeInputModes
            image Payload/App.app/Frameworks/Kit.framework/Kit arm64 ios 16.0 26.0
            image Payload/App.app/PlugIns/Widget.appex/Widget arm64 ios 16.0 26.0
            profile Payload/App.app/embedded.mobileprovision app-store application-identifier=ABCDE12345.com.example.app
            """)

    private static func checkAsBundleMetadata(_ bytes: [UInt8]) {
        // Bytes that are no property list leave the model as it is: nothing new to check.
        guard (try? PropertyListValue.parse(bytes, what: "input")) != nil else { return }
        var bundle = bundleWithoutMetadata
        for path in [
            "Payload/App.app/Info.plist", "Payload/App.app/Frameworks/Kit.framework/Info.plist",
            "Payload/App.app/PlugIns/Widget.appex/Info.plist", "Payload/App.app/PrivacyInfo.xcprivacy",
            "Payload/App.app/Frameworks/Kit.framework/PrivacyInfo.xcprivacy"
        ] {
            try? bundle.addPropertyList(bytes, at: path) { _ throws(InputError) in }
            bundle.files.append(path)
        }
        bundle.assembleBundles()
        _ = inspector.check(bundle)
    }

    private static func runConflicts(_ bytes: [UInt8]) -> Bool {
        let conflicts = ContentScanner.scan(bytes)
        // A marker size from the input too: `conflict-marker-size` attributes reach the scanner.
        if let first = bytes.first {
            let size = 1 + Int(first % 40)
            _ = ContentScanner.scan(Array(bytes.dropFirst()), markerSize: size)
        }
        return !conflicts.isBinary
    }

    /// Built once, as a run builds it once for all its files.
    private static let sourceAPIScanner = SourceAPIScanner(
        flags: ReleaseBuildFlags(debugOnly: ["TESTING"], releaseSet: ["RELEASE"]))

    private static func runIfConfig(_ bytes: [UInt8]) -> Bool {
        // The privacy rules' lexer reads any bytes, as their check does.
        bytes.withByteView { view in
            _ = sourceAPIScanner.scan(view, language: .swift)
            _ = sourceAPIScanner.scan(view, language: .cFamily)
        }
        // As the source scanner reads a file: UTF-8 checked, nesting guarded, then parsed.
        guard let file = try? ParsedSwiftFile(bytes: bytes, path: "input.swift") else { return false }
        let visitor = ClauseContentsVisitor(viewMode: .sourceAccurate)
        visitor.walk(file.tree)
        let evaluator = ReleaseConditionEvaluator(debugOnlyFlags: ["TESTING"], releaseSetFlags: ["RELEASE"])
        for node in visitor.nodes { _ = evaluator.verdict(for: node, memo: file.clauseMemo) }
        return true
    }

    private static func runPBXProj(_ bytes: [UInt8]) -> Bool {
        guard
            let project = try? PBXProjectReader.parse(
                bytes, file: "App.xcodeproj/project.pbxproj", projectDirectory: "/nonexistent")
        else { return false }
        let keys = [
            "SWIFT_ACTIVE_COMPILATION_CONDITIONS", "DEVELOPMENT_ASSET_PATHS", "ENABLE_TESTABILITY", "OTHER_SWIFT_FLAGS"
        ]
        for target in [nil] + project.targets.map(Optional.some) {
            for name in project.configurationNames {
                let settings = EffectiveBuildSettings(
                    project: project, target: target, configurationName: name, xcconfigs: [:])
                for key in keys { _ = settings.resolve(key) }
            }
        }
        return true
    }

    private static func runXCConfig(_ bytes: [UInt8]) -> Bool {
        let path = ScratchFile.write(bytes, name: "Release.xcconfig")
        guard let config = try? XCConfigReader.read(path: path) else { return false }
        for setting in config.settings { _ = config.setting(setting.key) }
        return true
    }

    private static func runConfig(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return
            (try? ConfigurationLoader.parse(
                text, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)) != nil
    }
}

extension HostileInputTarget {
    fileprivate static func runDemangler(_ bytes: [UInt8]) -> Bool {
        // A symbol name ends at its first NUL, as in a string table.
        let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        let full = Demangler.demangle(name, style: .full)
        _ = Demangler.demangle(name, style: .simplified)
        return full != nil
    }
}

/// One node in each `#if` clause: what the source scanner asks the evaluator about. The
/// evaluator's answer depends only on the clauses around a node, the same for every node of a
/// clause, so one of them asks each question the clause can raise.
private final class ClauseContentsVisitor: SyntaxVisitor {
    var nodes: [Syntax] = []

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        if let elements = node.elements, let first = Syntax(elements).children(viewMode: .sourceAccurate).first {
            nodes.append(first)
        }
        return .visitChildren
    }
}

/// One scratch file per process and name, rewritten for every input (the fuzzer runs millions).
private enum ScratchFile {
    private static let directory: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(base)/shipcheck-hostile-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func write(_ bytes: [UInt8], name: String) -> String {
        let path = directory + "/" + name
        precondition(
            FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write the scratch file \(path)"
        )
        return path
    }
}
