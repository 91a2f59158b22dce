import ShipcheckCore
import Testing

@Suite struct RuleExampleTests {
    @Test func markersBecomeByteColumnsAndAreRemoved() {
        let example = RuleExample("let é = 1\n  ↓#Preview {}\n↓x")
        let (text, markers) = example.unmarked
        #expect(text == "let é = 1\n  #Preview {}\nx")
        #expect(markers.map { "\($0.line):\($0.column)" } == ["2:3", "3:1"])
    }
}
