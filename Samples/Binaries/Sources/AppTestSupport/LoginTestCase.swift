import Testing
import XCTest

/// Test-support code linked into the app by mistake (a common Xcode / SwiftPM slip).
open class LoginTestCase: XCTestCase {
    public func testLoginSucceeds() { XCTAssertTrue(true) }
}

@Test func sampleFixtureLoads() {
    #expect(1 + 1 == 2)
}
