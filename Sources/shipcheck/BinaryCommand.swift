import ArgumentParser
import ShipcheckCore
import ShipcheckFrontend

struct BinaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "binary",
        abstract:
            "Audit ELF and Mach-O release artifacts, Apple bundles and Android APKs and App Bundles for leaked preview, test, mock and fixture code, and for what App Store Connect, Google Play and Android's loader would reject.",
        discussion: """
            PATHs are ELF files, Mach-O files (thin or universal: every slice is checked), static \
            archives, Apple bundles and archives (.app, .appex, .framework, .xcframework, \
            .xcarchive, .ipa: walked whole, with the bundle rules on their signing, profiles and \
            resources, and the App Store pre-flight rules: test code and debugging tools linked, \
            simulator slices, bitcode, the SDK floor (rules.preflight-sdk-too-old.minimum-sdk), minimum OS and \
            version mismatches, the profile's bundle identifier, an archive's dSYMs, privacy \
            manifests (listed SDKs, required reason APIs, invalid manifests) and purpose strings — \
            docs/preflight.md), Android artifacts (.apk, .aab, .apks, .aar, folders of ABI folders \
            such as jniLibs, .so files in an ABI folder: every library of every ABI, with Google \
            Play's pre-flight rules — 16 KB pages, 64-bit ABIs, debuggable and testOnly builds, the \
            target API floor (rules.play-target-sdk-too-old.minimum-target-sdk), versionCode — and \
            the libraries Android's loader refuses or cannot find: docs/play.md), or directories \
            searched for them (binaries by magic, bundles and Android artifacts by extension). An \
            artifact with nothing to check (an .ipa without an app, an APK without a manifest) is an \
            input error. Without PATHs, the \
            configuration's `binaries` globs are used. Stripped binaries are audited through the \
            Swift metadata sections. Exit codes: 0 clean, 1 findings at or above the failing \
            severity, 2 an input or the configuration could not be read.
            """
    )

    @OptionGroup var report: ReportOptions

    @Option(
        help: ArgumentHelp(
            "Check only this slice of universal Mach-O files (arm64, arm64_32, x86_64, armv7k…).", valueName: "arch"))
    var arch: String?

    @Option(
        help: ArgumentHelp(
            "The previous release's artifact: the one artifact given is judged against it too, with the previous-release rules (docs/diff.md); default: previous: in .shipcheck.yml.",
            valueName: "path"))
    var previous: String?

    @Argument(
        help: "ELF or Mach-O files, static archives, Apple bundles, .ipa files, Android artifacts or directories.")
    var paths: [String] = []

    func run() throws {
        let configuration = try report.loadConfiguration(root: ".")
        let line = ProgressLine("shipcheck binary")
        do {
            let outcome = try Frontend.binary(
                paths: paths, architecture: arch, previous: previous, configuration: configuration,
                failingSeverity: report.failingSeverity,
                progress: line.progress)
            line.finish()
            try report.emit(outcome)
        } catch let usage as UsageError {
            line.finish()
            throw ValidationError(usage.description)
        }
    }
}
