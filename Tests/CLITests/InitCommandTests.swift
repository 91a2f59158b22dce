import ShipcheckTestSupport
import Testing

@Suite struct InitCommandTests {
    @Test func writesAStarterThatRefusesToBeOverwritten() {
        let directory = TemporaryDirectory()
        let first = CommandRunner.shipcheck(["init", directory.path])
        #expect(first.status == 0)
        let written = directory.read(".shipcheck.yml")
        #expect(written?.contains("debug-only") == true)
        #expect(written?.contains("# ") == true, "the starter explains its settings")

        directory.write(".shipcheck.yml", "exclude: [mine]\n")
        let second = CommandRunner.shipcheck(["init", directory.path])
        #expect(second.status == 2)
        #expect(second.stderr.contains("already exists"))
        #expect(
            directory.read(".shipcheck.yml") == "exclude: [mine]\n",
            "an existing config is never overwritten without --force")

        let forced = CommandRunner.shipcheck(["init", "--force", directory.path])
        #expect(forced.status == 0)
        #expect(directory.read(".shipcheck.yml") == written)
    }

    @Test func missingDirectoryIsAnInputError() {
        let result = CommandRunner.shipcheck(["init", "/nonexistent/shipcheck-dir"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}

@Suite struct HelpTests {
    @Test(arguments: ["audit", "sources", "conflicts", "binary", "symbols", "query", "init"])
    func everySubcommandHasHelp(subcommand: String) {
        let result = CommandRunner.shipcheck([subcommand, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("OVERVIEW:"))
        #expect(result.stdout.contains("USAGE: shipcheck \(subcommand)"))
    }

    @Test func badOptionValueIsExitTwo() {
        let result = CommandRunner.shipcheck(["init", "--no-such-flag"])
        #expect(result.status == 2)
    }
}

@Suite struct InitExtrasTests {
    @Test func ciJobsOnlyWhenAskedAndStateIsIgnored() throws {
        let directory = TemporaryDirectory()
        directory.write(".gitignore", "build/")
        #expect(CommandRunner.shipcheck(["init", directory.path]).status == 0)
        #expect(!directory.exists(".github/workflows/shipcheck.yml"))
        #expect(directory.read(".gitignore") == "build/\n.shipcheck/state/\n")

        let again = TemporaryDirectory()
        let result = CommandRunner.shipcheck(["init", "--github-actions", "--gitlab-ci", again.path])
        #expect(result.status == 0)
        let workflow = try #require(again.read(".github/workflows/shipcheck.yml"))
        #expect(workflow.contains("shipcheck audit --format github"))
        #expect(again.read(".gitlab/shipcheck.yml")?.contains("codequality") == true)
        #expect(again.read(".gitignore") == ".shipcheck/state/\n")

        // Running again with --force does not add the ignore line twice.
        #expect(CommandRunner.shipcheck(["init", "--force", again.path]).status == 0)
        #expect(again.read(".gitignore") == ".shipcheck/state/\n")
    }

    @Test func refusalWritesNothing() {
        let directory = TemporaryDirectory()
        directory.write(".github/workflows/shipcheck.yml", "mine")
        let result = CommandRunner.shipcheck(["init", "--github-actions", directory.path])
        #expect(result.status == 2)
        #expect(!directory.exists(".shipcheck.yml"), "nothing is written when one file would be overwritten")
        #expect(directory.read(".github/workflows/shipcheck.yml") == "mine")
    }
}
