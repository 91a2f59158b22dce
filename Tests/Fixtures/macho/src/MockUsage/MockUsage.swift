// Types whose names match binary-mock-symbol's patterns, some used by the product's own code and
// some not (no standard library: the same source builds for Apple targets with -parse-stdlib).

/// What `=` needs when there is no standard library to declare it.
precedencegroup AssignmentPrecedence {
    assignment: true
    associativity: right
}

/// Product code whose domain word is "stub": stored by `Planner` → a note.
public struct StubBinary {
    public init() {}
}

/// Product code too, stored only inside a generic (`Box<StubExecutable>`) → a note.
public struct StubExecutable {
    public init() {}
}

public struct Box<Wrapped> {
    public var value: Wrapped
    public init(_ value: Wrapped) { self.value = value }
}

public final class Planner {
    public var stub: StubBinary
    public var executable: Box<StubExecutable>
    public init() {
        stub = StubBinary()
        executable = Box(StubExecutable())
    }
}

/// An extension point with a product implementation; `StubBinaryProducer` plugs in beside it → a note.
public protocol TaskProducer {}

public final class CompileProducer: TaskProducer {
    public init() {}
}

public final class StubBinaryProducer: TaskProducer {
    public init() {}
}

/// A test double that leaked: it conforms to the seam it is named after, and the product only
/// holds it in an enum case that switches to it → a warning.
public protocol Clock {}

public final class SystemClock: Clock {
    public init() {}
}

public final class MockClock: Clock {
    public init() {}
}

public enum ClockSource {
    case system(SystemClock)
    case mock(MockClock)
}

/// Stored only by another test double → a warning (and so is `MockScheduler`).
public final class MockTimer {
    public init() {}
}

public final class MockScheduler {
    public var timer: MockTimer
    public init() { timer = MockTimer() }
}
