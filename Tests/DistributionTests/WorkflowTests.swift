import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing
import Yams

/// The project's own workflows (.github/workflows), checked here though GitHub is not reachable:
/// every command, flag and path a `run:` step names exists, and the steps that can run on Linux
/// (the release's packaging and publishing, the Homebrew formula's install and test, setup's
/// macOS branch) are run on the packed debug binary. `make lint` runs actionlint and zizmor on
/// the same files; docs/distribution.md lists what only GitHub can run.
@Suite struct WorkflowTests {
    /// Every workflow's jobs' steps, with the file each came from.
    static func steps() throws -> [(file: String, job: String, step: [String: Any])] {
        let folder = Repository.path(".github/workflows")
        var steps: [(String, String, [String: Any])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".yml") })
            .sorted()
        {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let workflow = try #require(try Yams.load(yaml: text) as? [String: Any], "\(name)")
            for (job, body) in try #require(workflow["jobs"] as? [String: [String: Any]], "\(name)").sorted(by: {
                $0.key < $1.key
            }) {
                for step in body["steps"] as? [[String: Any]] ?? [] { steps.append((name, job, step)) }
            }
        }
        return steps
    }

    /// The `run:` script of the step named `name` in `job` of `file`.
    static func script(_ file: String, _ job: String, _ name: String) throws -> String {
        let step = try #require(
            try steps().first { $0.file == file && $0.job == job && $0.step["name"] as? String == name },
            "\(file) \(job) \(name)")
        return try #require(step.step["run"] as? String)
    }

    /// `swift build --help` / `swift test --help`, for the options they take.
    static let swiftHelp: [String: String] = {
        ["build", "test"].reduce(into: [:]) { $0[$1] = CommandRunner.run("swift", [$1, "--help"]).stdout }
    }()

    @Test func everyCommandFlagAndPathARunStepNamesExists() throws {
        let makefile = try String(contentsOfFile: Repository.path("Makefile"), encoding: .utf8)
        let packageScript = try String(contentsOfFile: Repository.path("scripts/package.sh"), encoding: .utf8)
        let manifest = try String(contentsOfFile: Repository.path("Package.swift"), encoding: .utf8)
        var checked = 0
        for (file, job, step) in try Self.steps() {
            guard let script = step["run"] as? String else { continue }
            let place = "\(file) \(job) '\(step["name"] as? String ?? "")'"
            // Lines joined where they continue, then split into words (quotes dropped).
            for line in script.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
                let words = line.split(whereSeparator: {
                    $0 == " " || $0 == "\"" || $0 == "'" || $0 == "(" || $0 == ")"
                }).map(String.init)
                for (index, word) in words.enumerated() {
                    let next = index + 1 < words.count ? words[index + 1] : ""
                    if word == "make" {
                        #expect(makefile.contains("\n\(next):"), "\(place): make \(next) is no target of the Makefile")
                        checked += 1
                    }
                    if word == "./scripts/package.sh" {
                        #expect(
                            packageScript.contains("\n  \(next))"), "\(place): package.sh has no subcommand \(next)")
                        checked += 1
                    }
                    // Paths (not placeholders such as TARGET in an issue's text).
                    let placeholder = word.split(separator: "/").contains {
                        $0.count > 1 && $0.allSatisfy(\.isUppercase)
                    }
                    if word.hasPrefix("./scripts/") || word.hasPrefix("./.clusterfuzzlite/")
                        || word.hasPrefix("Tests/Fixtures/"), !placeholder
                    {
                        let path = word.hasPrefix("./") ? String(word.dropFirst(2)) : word
                        #expect(
                            FileManager.default.fileExists(atPath: Repository.path(path)),
                            "\(place): \(path) does not exist")
                        if word.hasPrefix("./") {
                            #expect(
                                FileManager.default.isExecutableFile(atPath: Repository.path(path)),
                                "\(place): \(path) is not executable")
                        }
                        checked += 1
                    }
                    if word == "swift", ["build", "test"].contains(next) {
                        let help = Self.swiftHelp[next] ?? ""
                        for flag in words[(index + 2)...].prefix(while: { $0 != "&&" && $0 != "|" })
                        where flag.hasPrefix("--") {
                            #expect(
                                help.contains(flag.split(separator: "=")[0]), "\(place): swift \(next) takes no \(flag)"
                            )
                            checked += 1
                        }
                        if let product = words.firstIndex(of: "--product").map({ words[$0 + 1] }) {
                            #expect(
                                product == "shipcheckPackageTests" || manifest.contains("name: \"\(product)\""),
                                "\(place): no product \(product)")
                        }
                    }
                }
            }
        }
        #expect(checked > 20, "the check found only \(checked) commands: the parsing no longer matches the workflows")
    }

    /// Actions are pinned to a commit (zizmor's rule), with the version they are in a comment.
    @Test func everyActionIsPinnedToACommit() throws {
        let folder = Repository.path(".github/workflows")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) + ["../../action.yml"] {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("uses: ") && !line.contains("uses: ./") {
                #expect(line.contains(/@[0-9a-f]{40} # v[0-9.]+$/), "\(name): \(line)")
            }
        }
    }

    /// The release's publish step on three tarballs (this platform's and two copies standing in
    /// for the other platforms): checksums checked, one artifact bundle with every variant, the
    /// plugins package naming it by URL and checksum, the formula with the three checksums.
    @Test func releasePackagingStepMergesEveryPlatform() throws {
        let release = PackedRelease.shared
        let scratch = TemporaryDirectory("shipcheck-release-publish")
        let dist = scratch.path + "/dist"
        try FileManager.default.createDirectory(atPath: dist, withIntermediateDirectories: true)
        // The step runs at the checkout's root: the scripts and what they read, beside dist/.
        for item in ["scripts", "Formula", "Plugins", "README.md"] {
            try FileManager.default.createSymbolicLink(
                atPath: scratch.path + "/" + item, withDestinationPath: Repository.path(item))
        }
        let version = release.version
        for platform in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "universal-apple-macosx"] {
            Self.repack(release, as: platform, into: dist)
        }
        let script = try Self.script(
            "release.yml", "publish",
            "Checksums, one artifact bundle with every variant, the plugins package, the formula")
        let result = CommandRunner.run(
            "/bin/bash", ["-eo", "pipefail", "-c", script], in: scratch.path,
            environment: ["TAG": "v\(version)", "GITHUB_REPOSITORY": "shipcheck/shipcheck"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        let info = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: dist + "/shipcheck.artifactbundle/info.json")))
                as? [String: Any])
        let artifact = try #require((info["artifacts"] as? [String: Any])?["shipcheck"] as? [String: Any])
        #expect(artifact["version"] as? String == version)
        let variants = try #require(artifact["variants"] as? [[String: Any]])
        let triples = variants.map { ($0["supportedTriples"] as? [String] ?? []).joined(separator: " ") }.sorted()
        #expect(
            triples == [
                "aarch64-unknown-linux-gnu", "arm64-apple-macosx x86_64-apple-macosx", "x86_64-unknown-linux-gnu"
            ])
        for variant in variants {
            let path = try #require(variant["path"] as? String)
            #expect(FileManager.default.isExecutableFile(atPath: dist + "/shipcheck.artifactbundle/" + path), "\(path)")
        }
        let zipChecksum = try String(contentsOfFile: dist + "/shipcheck.artifactbundle.zip.sha256", encoding: .utf8)
            .prefix(64)
        let plugins = try String(contentsOfFile: dist + "/shipcheck-plugins/Package.swift", encoding: .utf8)
        #expect(
            plugins.contains(
                "url: \"https://github.com/shipcheck/shipcheck/releases/download/\(version)/shipcheck.artifactbundle.zip\""
            ))
        #expect(plugins.contains("checksum: \"\(zipChecksum)\""))
        #expect(
            plugins.contains(".writeToPackageDirectory("),
            "the plugins package declares the command plugin's write permission too")

        let formula = try String(contentsOfFile: dist + "/shipcheck.rb", encoding: .utf8)
        #expect(formula.contains("version \"\(version)\""))
        for platform in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "universal-apple-macosx"] {
            let checksum = try String(
                contentsOfFile: dist + "/shipcheck-\(version)-\(platform).tar.gz.sha256", encoding: .utf8
            ).prefix(64)
            #expect(formula.contains("sha256 \"\(checksum)\" # \(platform)"), "\(platform)")
        }
    }

    /// The formula's install commands, done as Homebrew does them into a prefix from the
    /// unpacked release tarball, then its test block's commands on what was installed.
    @Test func formulaInstallsTheBinaryManualAndCompletionsFromTheTarball() throws {
        let release = PackedRelease.shared
        let scratch = TemporaryDirectory("shipcheck-formula")
        let unpacked = release.unpack(into: scratch)
        let prefix = scratch.path + "/Cellar/shipcheck/\(release.version)"
        let formula = try String(contentsOfFile: Repository.path("Formula/shipcheck.rb"), encoding: .utf8)
        // Homebrew's folders for the formula's install methods.
        let destinations = [
            "bin": "bin", "man1": "share/man/man1", "bash_completion": "etc/bash_completion.d",
            "zsh_completion": "share/zsh/site-functions", "fish_completion": "share/fish/vendor_completions.d"
        ]
        let installs = formula.matches(of: /\n    (\w+)\.install "([^"]+)"/)
        #expect(installs.count == 5)
        // The tests pack the debug binary without its manual page (generate-manual is a release
        // build); make dist always adds it (dist.sh passes --manual).
        let manual = unpacked + "/share/man/man1/shipcheck.1"
        if !FileManager.default.fileExists(atPath: manual) {
            #expect(
                try String(contentsOfFile: Repository.path("scripts/dist.sh"), encoding: .utf8).contains(
                    "--manual \"$work/man\""))
            try ".TH SHIPCHECK 1\n".write(toFile: manual, atomically: true, encoding: .utf8)
        }
        for install in installs {
            let destination = try #require(
                destinations[String(install.1)], "Homebrew has no \(install.1) folder this test knows")
            let source = unpacked + "/" + install.2
            #expect(FileManager.default.fileExists(atPath: source), "the tarball has no \(install.2)")
            try FileManager.default.createDirectory(
                atPath: prefix + "/" + destination, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: source,
                toPath: prefix + "/" + destination + "/" + (String(install.2) as NSString).lastPathComponent)
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/shipcheck"))

        // test do … end: `shell_output(COMMAND[, STATUS])` with #{bin}, #{testpath}, #{version}.
        let testpath = scratch.path + "/testpath"
        try FileManager.default.createDirectory(atPath: testpath, withIntermediateDirectories: true)
        let swiftFile = try #require(formula.firstMatch(of: /\(testpath\/"App.swift"\).write\("(.*)"\)\n/))
        try String(swiftFile.1).replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\"", with: "\"")
            .write(toFile: testpath + "/App.swift", atomically: true, encoding: .utf8)
        let assertions = formula.matches(of: /assert_match "([^"]+)", shell_output\("([^"]+)"(?:, (\d+))?\)/)
        #expect(assertions.count == 2)
        for assertion in assertions {
            let expand = { (text: Substring) in
                String(text).replacingOccurrences(of: "#{bin}", with: prefix + "/bin").replacingOccurrences(
                    of: "#{testpath}", with: testpath
                )
                .replacingOccurrences(of: "#{version}", with: release.version)
            }
            let result = CommandRunner.run("/bin/sh", ["-c", expand(assertion.2)])
            #expect(result.status == Int32(assertion.3 ?? "0"), "\(assertion.2): \(result.stderr)")
            #expect(result.stdout.contains(expand(assertion.1)), "\(assertion.2): \(result.stdout)")
        }
    }

    /// scripts/publish-git.sh, which publishes the plugins package and the formula, on local
    /// repositories: the tree replaced (or overlaid) in one commit, tagged, and a second run that
    /// changes nothing makes no commit.
    @Test func publishingCommitsTagsAndPushes() throws {
        let scratch = TemporaryDirectory("shipcheck-publish")
        let remote = scratch.path + "/remote.git"
        CommandRunner.git(["init", "-q", "--bare", remote], in: scratch.path)
        let seed = GitFixture("shipcheck-publish-seed")
        seed.write("README.md", "tap\n")
        seed.write("Stale.swift", "old\n")
        seed.commitAll("seed")
        seed.git("push", "-q", remote, "HEAD:refs/heads/main")
        CommandRunner.git(["symbolic-ref", "HEAD", "refs/heads/main"], in: remote)
        scratch.write("plugins/Package.swift", "// swift-tools-version: 6.1\n")
        let publish = { (arguments: [String]) in
            CommandRunner.run("/bin/bash", [Repository.path("scripts/publish-git.sh")] + arguments, in: scratch.path)
        }
        let first = publish([remote, scratch.path + "/plugins", "9.9.9"])
        #expect(first.status == 0, "\(first.stderr)")
        let files = CommandRunner.git(["ls-tree", "--name-only", "9.9.9"], in: remote).stdout
        #expect(files == "Package.swift\n", "the tree is the folder's: \(files)")
        let again = publish([remote, scratch.path + "/plugins"])
        #expect(again.status == 0 && again.stdout.contains("already holds"), "\(again.stdout)\(again.stderr)")
        scratch.write("tap/Formula/shipcheck.rb", "class Shipcheck < Formula\nend\n")
        let overlay = publish(["--overlay", remote, scratch.path + "/tap"])
        #expect(overlay.status == 0, "\(overlay.stderr)")
        #expect(
            CommandRunner.git(["ls-tree", "-r", "--name-only", "main"], in: remote).stdout
                == "Formula/shipcheck.rb\nPackage.swift\n")
    }

    /// `make setup` on a Mac, with `uname` saying Darwin: Homebrew's pcre2 and pkgconf, never
    /// apt-get or libelf; nothing when they are there.
    @Test func setupOnMacOSInstallsWithHomebrew() throws {
        let scratch = TemporaryDirectory("shipcheck-setup-darwin")
        let log = scratch.path + "/calls"
        for (tool, body) in [
            ("uname", "echo Darwin"), ("brew", "echo \"brew $*\" >>'\(log)'"),
            ("apt-get", "echo \"apt-get $*\" >>'\(log)'; exit 1"),
            ("pkg-config", "[ -n \"$PKG_CONFIG_WORKS\" ]"), ("swift", "exit 0"), ("shellcheck", "exit 0"),
            ("cmake", "exit 0")
        ] {
            let path = scratch.write("bin/" + tool, "#!/bin/sh\n\(body)\n")
            SystemCalls.setMode(path, 0o755)
        }
        let path = scratch.path + "/bin:/usr/bin:/bin"
        let missing = CommandRunner.run("/bin/bash", [Repository.path("scripts/setup.sh")], environment: ["PATH": path])
        #expect(missing.status == 0, "\(missing.stderr)")
        #expect(scratch.read("calls") == "brew install pkgconf pcre2\n")
        try FileManager.default.removeItem(atPath: log)
        let present = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/setup.sh"), "dist", "lint"],
            environment: ["PATH": path, "PKG_CONFIG_WORKS": "1"])
        #expect(present.status == 0, "\(present.stderr)")
        #expect(!scratch.exists("calls"), "\(scratch.read("calls") ?? "")")
    }

    /// `setup.sh no-elf` (the Linux CI job that builds as a Mac does, with the ELF trait off)
    /// installs everything but libelf; without it, libelf's headers too.
    @Test func setupWithoutELFLeavesLibelfOut() throws {
        let scratch = TemporaryDirectory("shipcheck-setup-no-elf")
        let log = scratch.path + "/calls"
        for (tool, body) in [
            ("uname", "echo Linux"), ("id", "echo 0"), ("apt-get", "echo \"apt-get $*\" >>'\(log)'"),
            ("pkg-config", "[ \"$1\" = --version ]"), ("swift", "exit 0")
        ] {
            let path = scratch.write("bin/" + tool, "#!/bin/sh\n\(body)\n")
            SystemCalls.setMode(path, 0o755)
        }
        let path = scratch.path + "/bin:/usr/bin:/bin"
        for (arguments, packages) in [
            (["no-elf"], "libpcre2-dev zlib1g-dev"), ([], "libelf-dev libpcre2-dev zlib1g-dev")
        ] {
            try? FileManager.default.removeItem(atPath: log)
            let result = CommandRunner.run(
                "/bin/bash", [Repository.path("scripts/setup.sh")] + arguments, environment: ["PATH": path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                scratch.read("calls") == "apt-get update -qq\napt-get install -y -qq \(packages)\n",
                "setup.sh \(arguments)")
        }
    }

    /// The packed tarball under another platform's name (its top folder renamed to match).
    static func repack(_ release: PackedRelease, as platform: String, into dist: String) {
        let work = TemporaryDirectory("shipcheck-repack")
        let unpacked = release.unpack(into: work)
        let name = "shipcheck-\(release.version)-\(platform)"
        if (unpacked as NSString).lastPathComponent != name {
            try? FileManager.default.moveItem(atPath: unpacked, toPath: work.path + "/" + name)
        }
        let packed = CommandRunner.run("tar", ["-C", work.path, "-czf", "\(dist)/\(name).tar.gz", name])
        precondition(packed.status == 0, "repacking as \(platform) failed: \(packed.stderr)")
        let digest = SHA256Tool.run([name + ".tar.gz"], in: dist)
        precondition(digest.status == 0, "no checksum of \(name).tar.gz: \(digest.stderr)")
        try! digest.stdout.write(toFile: "\(dist)/\(name).tar.gz.sha256", atomically: true, encoding: .utf8)
    }
}
