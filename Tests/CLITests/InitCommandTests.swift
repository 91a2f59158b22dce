import Testing
import ShipcheckTestSupport

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
        #expect(directory.read(".shipcheck.yml") == "exclude: [mine]\n", "an existing config is never overwritten without --force")

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
