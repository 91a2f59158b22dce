import Foundation

/// Sends requests with the app's retry policy.
final class NetworkClient {
    let session: URLSession
    let policy: RetryPolicy

    init(session: URLSession = .shared, policy: RetryPolicy = .standard) {
        self.session = session
        self.policy = policy
    }

    func timeout(for request: URLRequest) -> TimeInterval {
        // Resolved by hand, but the closer line was left behind.
        request.timeoutInterval > 0 ? request.timeoutInterval : 30
>>>>>>> feature/timeouts
    }

    /// Not conflict markers: a string and an operator, neither at the start of a line.
    let banner = "<<<<<<< HEAD"
    func either(_ a: Bool, _ b: Bool) -> Bool { a || b }
}
