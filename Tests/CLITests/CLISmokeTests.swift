import ShipcheckTestSupport
import Testing

@Suite struct CLIUsageTests {
    @Test func unknownSubcommandIsAUsageErrorWithExitTwo() {
        let result = CommandRunner.shipcheck(["no-such-command"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no-such-command"))
    }

    @Test func helpListsEverySubcommand() {
        let result = CommandRunner.shipcheck(["--help"])
        #expect(result.status == 0)
        for name in ["audit", "sources", "conflicts", "binary", "symbols", "query", "init"] {
            #expect(result.stdout.contains("  \(name) "), "help lacks \(name)")
        }
    }
}
