import ShipcheckCore
import Testing

@Suite struct RuleExampleTests {
    @Test func markersBecomeByteColumnsAndAreRemoved() throws {
        let example = RuleExample("let é = 1\n  ↓#Preview {}\n↓x")
        let (text, markers) = try example.unmarked
        #expect(text == "let é = 1\n  #Preview {}\nx")
        #expect(markers.map { "\($0.line):\($0.column)" } == ["2:3", "3:1"])
        #expect(markers.allSatisfy { $0.severity == nil })
    }

    @Test func aMarkerNamesItsSeverityInGuillemets() throws {
        let (text, markers) = try RuleExample("↓«note»type A\n↓↓«error»type B\n").unmarked
        #expect(text == "type A\ntype B\n")
        #expect(
            markers == [
                .init(line: 1, column: 1, severity: .note), .init(line: 2, column: 1),
                .init(line: 2, column: 1, severity: .error)
            ])
    }

    @Test(arguments: ["↓«fatal»x", "↓«note x", "↓«»x"])
    func aMarkerNamingNoSeverityIsAnError(_ text: String) {
        #expect(throws: RuleExample.MarkerError.self) { try RuleExample(text).unmarked }
    }
}
