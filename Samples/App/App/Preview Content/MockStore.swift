import Foundation

/// In-memory store for previews.
final class MockStore {
    var items: [String] = PreviewDataFallback.items
}

#if DEBUG
extension MockStore {
    static let preview = MockStore()
}
#endif

enum PreviewDataFallback {
    static let items = ["one", "two"]
}
