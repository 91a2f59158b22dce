import SwiftUI

/// Release code only: a view, a policy whose name merely contains a pattern word, a class.
public struct SettingsView: View {
    public init() {}
}

public struct StubbornRetryPolicy {
    public init() {}
}

public final class Hammock {
    public init() {}
}
