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
    /// The name package.sh and scripts/install.sh give this host's build (Swift's target triple).
    let platform: String
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
        let packed = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/package.sh"), "pack", CommandRunner.shipcheckPath, directory])
        precondition(packed.status == 0, "package.sh pack failed:\n\(packed.stdout)\n\(packed.stderr)")
        let info = CommandRunner.run("swift", ["-print-target-info"])
        let target = (try? JSONSerialization.jsonObject(with: Data(info.stdout.utf8))) as? [String: Any]
        platform = ((target?["target"] as? [String: Any])?["unversionedTriple"] as? String) ?? "unknown"
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

/// A PATH with git and the basic shell tools but no Swift toolchain, as in a clean container.
enum ToolchainFreePath {
    static func make(in directory: TemporaryDirectory, extra: [String] = []) -> String {
        let bin = directory.path + "/no-toolchain-bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for tool in [
            "git", "sh", "bash", "tar", "gzip", "cp", "mkdir", "rm", "mktemp", "sha256sum", "cut", "uname", "cat",
            "curl", "dirname", "env"
        ] {
            let found = CommandRunner.run("/bin/sh", ["-c", "command -v \(tool)"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            if !found.isEmpty {
                try? FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: found)
            }
        }
        return (extra + [bin]).joined(separator: ":")
    }
}
