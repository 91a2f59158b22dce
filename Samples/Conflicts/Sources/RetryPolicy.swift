import Foundation

/// How often and how long the client retries a failed request.
struct RetryPolicy {
    var maximumAttempts: Int
    var baseDelay: TimeInterval

<<<<<<< HEAD
    static let standard = RetryPolicy(maximumAttempts: 3, baseDelay: 0.5)
=======
    static let standard = RetryPolicy(maximumAttempts: 5, baseDelay: 0.25)
>>>>>>> feature/faster-retries

    func delay(beforeAttempt attempt: Int) -> TimeInterval {
        baseDelay * pow(2, Double(attempt - 1))
    }
}
