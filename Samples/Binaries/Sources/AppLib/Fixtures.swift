/// Fixture data that should live in a test target, not the app.
public enum PreviewFixtures {
    public static let developerPath = "/Users/alice/Projects/App/Preview Content/users.json"
    public static let homePath = "/home/builder/work/app/Fixtures/sample.json"
}

/// A mock that leaked out of the test support code.
public final class MockNetworkService {
    public var requests: [String] = []
    public init() {}
    public func fetch(_ url: String) -> String { requests.append(url); return "{}" }
}

/// Names that merely contain a pattern word are not mocks: `Stubborn` is not a `Stub`.
public struct StubbornRetryPolicy {
    public var attempts = 3
    public init() {}
}
