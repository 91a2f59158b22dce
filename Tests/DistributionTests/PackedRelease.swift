import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Synchronization

/// The debug `shipcheck` packed by `scripts/package.sh pack`, the packaging `make dist` runs on
/// the release build: made once per test process and shared by the tests that read it.
struct PackedRelease: Sendable {
    static let shared = PackedRelease()

    /// Where package.sh wrote the tarball, checksum, artifact bundle and plugin package.
    let directory: String
    let version = Report.toolVersion
    /// The name package.sh and scripts/install.sh give this host's build: Swift's target triple
    /// on Linux; on a Mac the universal build's name, the only one install.sh asks for there
    /// (the debug binary, one architecture, stands in for it).
    let platform: String
    /// This host's Swift target triple: the one triple of the packed binary's bundle variant.
    let hostTriple: String
    private let scratch: TemporaryDirectory

    var tarballName: String { "shipcheck-\(version)-\(platform).tar.gz" }
    var tarball: String { directory + "/" + tarballName }
    var bundle: String { directory + "/shipcheck.artifactbundle" }
    var pluginPackage: String { directory + "/shipcheck-plugins" }

    private init() {
        scratch = TemporaryDirectory("shipcheck-dist")
        // A static is never released, so the scratch directory's own clean-up never runs: the
        // packed release (about 200 MB) is removed when the test process exits instead.
        PackedReleaseCleanup.removeAtExit(scratch.path)
        directory = scratch.path + "/dist"
        let info = CommandRunner.run("swift", ["-print-target-info"])
        let target = (try? JSONSerialization.jsonObject(with: Data(info.stdout.utf8))) as? [String: Any]
        hostTriple = ((target?["target"] as? [String: Any])?["unversionedTriple"] as? String) ?? "unknown"
        #if os(macOS)
        platform = "universal-apple-macosx"
        #else
        platform = hostTriple
        #endif
        let packed = CommandRunner.run(
            "/bin/bash",
            [
                Repository.path("scripts/package.sh"), "pack", CommandRunner.shipcheckPath, directory, "--platform",
                platform, "--triple", hostTriple
            ])
        precondition(packed.status == 0, "package.sh pack failed:\n\(packed.stdout)\n\(packed.stderr)")
    }

    /// The tarball unpacked into a fresh directory: its top-level folder.
    func unpack(into directory: TemporaryDirectory) -> String {
        let result = CommandRunner.run("tar", ["-xzf", tarball, "-C", directory.path])
        precondition(result.status == 0, "tar failed: \(result.stderr)")
        return directory.path + "/shipcheck-\(version)-\(platform)"
    }

    /// A directory laid out like a release download site (VERSION/FILE) for scripts/install.sh,
    /// reached through SHIPCHECK_RELEASE_URL=file://….
    func releaseSite(in directory: TemporaryDirectory) -> String {
        let site = directory.path + "/releases"
        try! FileManager.default.createDirectory(atPath: site + "/" + version, withIntermediateDirectories: true)
        for name in [tarballName, tarballName + ".sha256"] {
            try! FileManager.default.copyItem(
                atPath: self.directory + "/" + name, toPath: site + "/" + version + "/" + name)
        }
        return "file://" + site
    }
}

/// Removes the shared packed release's directory when the test process exits.
private enum PackedReleaseCleanup {
    private static let path = Mutex<String?>(nil)

    static func removeAtExit(_ directory: String) {
        path.withLock { $0 = directory }
        atexit {
            guard let directory = PackedReleaseCleanup.path.withLock({ $0 }) else { return }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// A PATH with git and the basic shell tools but no Swift toolchain, as in a clean container;
/// `leaving` out some of them (sha256sum, as on a Mac).
enum ToolchainFreePath {
    static func make(in directory: TemporaryDirectory, extra: [String] = [], leaving left: Set<String> = []) -> String {
        let bin = directory.path + "/no-toolchain-bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for tool in [
            "git", "sh", "bash", "tar", "gzip", "cp", "mkdir", "rm", "mktemp", "sha256sum", "shasum", "cut", "uname",
            "cat", "curl", "dirname", "env"
        ] where !left.contains(tool) {
            let found = CommandRunner.run("/bin/sh", ["-c", "command -v \(tool)"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            if !found.isEmpty {
                try? FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: found)
            }
        }
        return (extra + [bin]).joined(separator: ":")
    }
}

/// SHA-256 as the scripts take it: `sha256sum`, or `shasum -a 256` where there is none (macOS).
enum SHA256Tool {
    static let script = #"if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@"; else shasum -a 256 "$@"; fi"#

    /// `sha256sum ARGUMENTS` (a digest, or `-c FILE` to check one).
    static func run(_ arguments: [String], in directory: String? = nil) -> CommandResult {
        CommandRunner.run("/bin/sh", ["-c", script, "sha256"] + arguments, in: directory)
    }
}
