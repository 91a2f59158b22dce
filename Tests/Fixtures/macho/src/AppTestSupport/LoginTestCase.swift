import XCTest

/// Test-support code linked into the app by mistake.
open class LoginTestCase: XCTestCase {
    public func testLoginSucceeds() {}
}
