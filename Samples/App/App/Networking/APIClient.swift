import Foundation

/// Talks to the backend. Compiled in every configuration.
struct APIClient {
    // A staging endpoint left in from testing: the `staging-endpoints` saved query gates on it.
    static let baseURL = URL(string: "https://staging.example.com/api/v2")!

    /// Names shown while the first page loads. `PreviewData` exists only in DEBUG builds
    /// (Preview Content, inside #if DEBUG): the Archive build fails on this reference.
    func placeholderNames() -> [String] {
        PreviewData.names
    }

    /// A local that merely shares a DEBUG-only type's name is not a reference to it.
    func cachedNames(from MockStore: [String]) -> [String] {
        MockStore
    }
}
