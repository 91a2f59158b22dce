import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Testing
import Yams

/// The GitHub Action, the GitLab CI template, the Dockerfile and the pre-commit hooks name only
/// commands and flags that exist: each is parsed, and the commands it runs are run against
/// `Samples/` (the action's release install from a local copy of the packed release).
@Suite struct CIIntegrationTests {
    let release = PackedRelease.shared

    static func yaml(_ relative: String) throws -> [String: Any] {
        let text = try String(contentsOfFile: Repository.path(relative), encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    /// A copy of the sample app to run CI commands in (they write report files).
    static func workspace(in directory: TemporaryDirectory) -> String {
        let workspace = directory.path + "/workspace"
        try! FileManager.default.copyItem(atPath: Repository.path("Samples/App"), toPath: workspace)
        return workspace
    }

    // MARK: GitHub Action

    @Test func actionDeclaresTheDocumentedInputsAndDefaultsToThisRelease() throws {
        let action = try Self.yaml("action.yml")
        let inputs = try #require(action["inputs"] as? [String: [String: Any]])
        for name in ["version", "args", "format", "sarif", "working-directory", "cache", "previous", "artifact"] {
            #expect(inputs[name] != nil, "action.yml lacks input \(name)")
        }
        #expect(inputs["version"]?["default"] as? String == Report.toolVersion)
        #expect(inputs["cache"]?["default"] as? String == "true")
        #expect((action["runs"] as? [String: Any])?["using"] as? String == "composite")
    }

    @Test func actionInstallsTheReleaseRunsShipcheckAndWritesSARIF() throws {
        let scratch = TemporaryDirectory()
        let workspace = Self.workspace(in: scratch)
        var runner = try ActionRunner(scratch: scratch, workspace: workspace, inputs: ["sarif": "true"])
        runner.environment["SHIPCHECK_RELEASE_URL"] = release.releaseSite(in: scratch)
        // A home of its own, with XDG_CACHE_HOME unset (empty counts as unset) as on GitHub's runners.
        let home = scratch.path + "/home"
        runner.environment["HOME"] = home
        runner.environment["XDG_CACHE_HOME"] = ""
        let results = try runner.run()

        #expect(
            results.map(\.id) == ["install", "restore-cache", "run", "save-cache", "upload-sarif"],
            "steps run: \(results.map(\.id))")
        let install = try #require(results.first { $0.id == "install" })
        #expect(install.status == 0, "\(install.output)")
        #expect(install.output.contains("\(Report.toolVersion) (revision"))
        // The default run: `shipcheck audit . --format github` fails the gate on the samples' findings.
        let run = try #require(results.first { $0.id == "run" })
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("::error file=App/Views/ProfileView.swift,line=14"), "\(run.output)")
        // The upload step is handed the file the run step wrote.
        let upload = try #require(results.first { $0.id == "upload-sarif" })
        let sarif = try #require(
            FileManager.default.contents(atPath: workspace + "/" + (upload.with["sarif_file"] ?? "")))
        let document = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")

        // The result cache: restored from the newest earlier run's, saved (though the gate failed)
        // from the folder shipcheck wrote it to.
        let restore = try #require(results.first { $0.id == "restore-cache" })
        let save = try #require(results.first { $0.id == "save-cache" })
        let prefix = try #require(restore.with["restore-keys"])
        #expect(restore.with["key"] == prefix + ActionRunner.commit)
        #expect(save.with["path"] == restore.with["path"])
        let folders = (restore.with["path"] ?? "").split(separator: "\n").map {
            String($0.replacing("~", with: home, maxReplacements: 1))
        }
        let written = folders.filter { !((try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []).isEmpty }
        #expect(written.count == 1, "shipcheck's cache is in none of \(folders)")
    }

    /// With a previous release, the gate judges the release against it and the job summary
    /// shows what the release adds (`shipcheck diff --format markdown`).
    @Test func actionWithAPreviousReleaseGatesOnItAndSummarisesTheDiff() throws {
        let scratch = TemporaryDirectory()
        let workspace = Self.workspace(in: scratch)
        for (name, relative) in [("previous.ipa", Repository.previousDemoIPA), ("App.ipa", Repository.demoIPA)] {
            try FileManager.default.copyItem(atPath: Repository.path(relative), toPath: workspace + "/" + name)
        }
        var runner = try ActionRunner(
            scratch: scratch, workspace: workspace,
            inputs: [
                "args": "binary App.ipa", "format": "text", "previous": "previous.ipa", "artifact": "App.ipa",
                "cache": "false"
            ])
        runner.environment["SHIPCHECK_RELEASE_URL"] = release.releaseSite(in: scratch)
        let results = try runner.run()
        #expect(results.map(\.id) == ["install", "run", "summary"], "steps run: \(results.map(\.id))")
        let run = try #require(results.first { $0.id == "run" })
        #expect(run.status == 1)
        #expect(run.output.contains("[previous-build-not-increased]"), "\(run.output)")
        let summary = try String(contentsOfFile: runner.environment["GITHUB_STEP_SUMMARY"]!, encoding: .utf8)
        #expect(summary.hasPrefix("### shipcheck diff: previous.ipa → App.ipa"), "\(summary)")
        #expect(summary.contains("| build | 8 | 7 |"))
    }

    @Test func actionWithTheCacheOffRestoresAndSavesNothing() throws {
        let scratch = TemporaryDirectory()
        var runner = try ActionRunner(
            scratch: scratch, workspace: Self.workspace(in: scratch), inputs: ["cache": "false"])
        runner.environment["SHIPCHECK_RELEASE_URL"] = release.releaseSite(in: scratch)
        #expect(try runner.run().map(\.id) == ["install", "run"])
    }

    @Test func actionSourceBuildUsesThisPackagesProductAndSetup() throws {
        let steps = try #require((try Self.yaml("action.yml")["runs"] as? [String: Any])?["steps"] as? [[String: Any]])
        let build = try #require(steps.first { $0["id"] as? String == "build" })
        let script = try #require(build["run"] as? String)
        #expect(script.contains("./scripts/setup.sh"))
        #expect(FileManager.default.isExecutableFile(atPath: Repository.path("scripts/setup.sh")))
        #expect(script.contains("swift build -c release --product shipcheck"))
        let manifest = try String(contentsOfFile: Repository.path("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".executable(name: "shipcheck""#))
        let cache = try #require(steps.first { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true })
        #expect((cache["with"] as? [String: Any])?["key"] as? String == "${{ steps.resolve.outputs.key }}")
    }

    // MARK: GitLab CI

    @Test func gitLabTemplateRunsTheGateAndWritesTheReportsItDeclares() throws {
        let template = try Self.yaml("ci/shipcheck.gitlab-ci.yml")
        let variables = try #require(template["variables"] as? [String: String])
        #expect(variables["SHIPCHECK_VERSION"] == Report.toolVersion)
        let job = try #require(template["shipcheck"] as? [String: Any])
        let image = try #require((job["image"] as? [String: Any])?["name"] as? String)
        #expect(image == "ghcr.io/shipcheck/shipcheck:$SHIPCHECK_VERSION", "the image the Dockerfile builds")

        let scratch = TemporaryDirectory()
        let workspace = Self.workspace(in: scratch)
        let shipcheckDirectory = (CommandRunner.shipcheckPath as NSString).deletingLastPathComponent
        let jobVariables = try #require(job["variables"] as? [String: String]).mapValues {
            $0.replacingOccurrences(of: "$CI_PROJECT_DIR", with: workspace)
        }
        let environment = variables.merging(jobVariables) { $1 }.merging([
            "CI_PROJECT_DIR": workspace, "PATH": ToolchainFreePath.make(in: scratch, extra: [shipcheckDirectory])
        ]) { $1 }
        func runLines(_ key: String) throws -> CommandResult {
            let lines = try #require(job[key] as? [String])
            return CommandRunner.run(
                "/bin/sh", ["-ec", lines.joined(separator: "\n")], in: workspace, environment: environment)
        }
        let script = try runLines("script")
        #expect(script.status == 1, "the gate fails the job on the samples' findings: \(script.stdout)\(script.stderr)")
        #expect(script.stdout.contains("App/Views/ProfileView.swift:14:1: error: "))
        #expect(try runLines("after_script").status == 0)

        // The result cache is where GitLab's cache keeps it, inside the scanned folder, and a warm
        // run there reports what the cold one did.
        let cache = try #require(job["cache"] as? [String: Any])
        #expect(cache["when"] as? String == "always", "kept when the gate fails")
        let cachePaths = try #require(cache["paths"] as? [String])
        #expect(cachePaths.map { workspace + "/" + $0 } == [(jobVariables["XDG_CACHE_HOME"] ?? "") + "/shipcheck"])
        #expect(
            !((try? FileManager.default.contentsOfDirectory(atPath: workspace + "/" + cachePaths[0])) ?? []).isEmpty)
        let warm = try runLines("script")
        #expect(warm.status == script.status)
        #expect(warm.stdout == script.stdout)

        let reports = try #require((job["artifacts"] as? [String: Any])?["reports"] as? [String: String])
        let quality = try #require(
            FileManager.default.contents(atPath: workspace + "/" + (reports["codequality"] ?? "")))
        #expect(((try JSONSerialization.jsonObject(with: quality)) as? [Any])?.isEmpty == false)
        let junit = try String(contentsOfFile: workspace + "/" + (reports["junit"] ?? ""), encoding: .utf8)
        #expect(junit.contains("<testsuites"))
    }

    // MARK: Dockerfile

    @Test func dockerfileCopiesWhatMakeDistProducesAndInstallsWhatTheBinaryNeeds() throws {
        let dockerfile = try Dockerfile(path: Repository.path("Dockerfile"))
        #expect(dockerfile.argumentDefaults["VERSION"] == Report.toolVersion)
        // `docker build --build-arg PLATFORM=… dist`: the context is package.sh's output.
        let arguments = dockerfile.argumentDefaults.merging(["PLATFORM": release.platform]) { $1 }
        let unpacked = TemporaryDirectory()
        let top = release.unpack(into: unpacked)
        let adds = dockerfile.instructions(named: "ADD")
        #expect(adds.count == 1)
        for add in adds {
            let source = try #require(add.split(separator: " ").first.map { Dockerfile.expand(String($0), arguments) })
            #expect(
                FileManager.default.fileExists(atPath: release.directory + "/" + source),
                "ADD \(source): not in make dist's output")
        }
        let copies = dockerfile.instructions(named: "COPY").filter { $0.hasPrefix("--from=unpack ") }
        #expect(copies.count == 2)
        for copy in copies {
            let source = Dockerfile.expand(String(copy.split(separator: " ")[1]), arguments)
            let inTarball = source.replacingOccurrences(
                of: "/unpack/shipcheck-\(release.version)-\(release.platform)", with: top)
            #expect(
                inTarball != source && FileManager.default.fileExists(atPath: inTarball),
                "COPY \(source): not in the tarball")
        }
        // The packages it installs provide the binary's shared libraries and the git it runs.
        let packages = dockerfile.instructions(named: "RUN").joined(separator: " ")
        #expect(packages.contains("apt-get install -y --no-install-recommends git libelf1"))
        let libelf = CommandRunner.run(
            "/bin/sh", ["-c", "ldd \"$1\" | grep -o '/[^ ]*libelf[^ ]*'", "sh", CommandRunner.shipcheckPath]
        ).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if !libelf.isEmpty, CommandRunner.run("/bin/sh", ["-c", "command -v dpkg"]).status == 0 {
            let owner = CommandRunner.run("dpkg", ["-S", URL(fileURLWithPath: libelf).resolvingSymlinksInPath().path])
                .stdout
            #expect(owner.hasPrefix("libelf1:"), "libelf comes from \(owner)")
        }
        // ENTRYPOINT + CMD is `shipcheck audit .`.
        #expect(dockerfile.instructions(named: "ENTRYPOINT") == [#"["shipcheck"]"#])
        #expect(dockerfile.instructions(named: "CMD") == [#"["audit", "."]"#])
        let scratch = TemporaryDirectory()
        let run = CommandRunner.run(top + "/bin/shipcheck", ["audit", "."], in: Self.workspace(in: scratch))
        #expect(run.status == 1, "\(run.stderr)")
    }

    // MARK: pre-commit

    @Test func preCommitHookEntriesRunOnStagedFiles() throws {
        let text = try String(contentsOfFile: Repository.path(".pre-commit-hooks.yaml"), encoding: .utf8)
        let hooks = try #require(try Yams.load(yaml: text) as? [[String: Any]])
        #expect(!hooks.isEmpty)
        for hook in hooks {
            #expect(hook["language"] as? String == "system")
            let entry = try #require(hook["entry"] as? String).split(separator: " ").map(String.init)
            #expect(entry.first == "shipcheck")
            let repository = GitFixture()
            repository.write("Clean.swift", "let value = 1\n")
            repository.write("Conflicted.swift", "<<<<<<< HEAD\nlet a = 1\n=======\nlet a = 2\n>>>>>>> feature\n")
            repository.git("add", ".")
            let clean = CommandRunner.shipcheck(Array(entry.dropFirst()) + ["Clean.swift"], in: repository.path)
            #expect(clean.status == 0, "\(hook["id"] ?? ""): \(clean.stderr)")
            let conflicted = CommandRunner.shipcheck(
                Array(entry.dropFirst()) + ["Conflicted.swift"], in: repository.path)
            #expect(conflicted.status == 1, "\(hook["id"] ?? ""): \(conflicted.stderr)")
        }
    }

    // MARK: README

    @Test func readmeCIExamplesUseOnlyTheActionsInputsAndTheTemplateInRepository() throws {
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let section = try #require(readme.firstRange(of: "## In CI").map { readme[$0.upperBound...] })
        let blocks = section.prefix(upTo: section.firstRange(of: "\n## ")?.lowerBound ?? section.endIndex)
            .matches(of: /```yaml\n((?s).*?)```/).map { String($0.1) }
        #expect(blocks.count >= 3)
        let inputs = Set(((try Self.yaml("action.yml")["inputs"]) as? [String: Any] ?? [:]).keys)
        var usesOfTheAction = 0
        for block in blocks {
            let document = try Yams.load(yaml: block)
            let jobs = (document as? [String: Any])?["jobs"] as? [String: [String: Any]] ?? [:]
            for step in jobs.values.flatMap({ $0["steps"] as? [[String: Any]] ?? [] }) {
                guard let uses = step["uses"] as? String, uses.hasPrefix("shipcheck/shipcheck@") else { continue }
                usesOfTheAction += 1
                let with = Set((step["with"] as? [String: Any] ?? [:]).keys)
                #expect(with.isSubset(of: inputs), "README passes \(with.subtracting(inputs)) to the action")
            }
            if let includes = (document as? [String: Any])?["include"] as? [[String: Any]] {
                for include in includes {
                    let remote = try #require(include["remote"] as? String)
                    let path = try #require(remote.firstMatch(of: /shipcheck\/shipcheck\/[^\/]+\/(.+)$/)).1
                    #expect(
                        FileManager.default.fileExists(atPath: Repository.path(String(path))),
                        "README includes \(remote)")
                }
            }
        }
        #expect(usesOfTheAction >= 1)
    }
}
