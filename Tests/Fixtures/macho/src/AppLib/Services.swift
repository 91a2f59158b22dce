/// A mock that leaked out of the test support code.
public final class MockNetworkService {
    public init() {}
}

/// Names that merely contain a pattern word are not mocks: `Stubborn` is not a `Stub`.
public struct StubbornRetryPolicy {
    public init() {}
}
