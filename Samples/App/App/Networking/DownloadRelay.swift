import Foundation

/// Hands download progress from URLSession's delegate queue to whoever listens.
final class DownloadRelay: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    // Not @Sendable: the main-actor closure ProgressBadge stores here is called on the
    // delegate queue, and crashes there (dispatch_assert_queue).
    var onProgress: ((Double) -> Void)?

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        onProgress?(Double(totalBytesWritten) / Double(max(totalBytesExpectedToWrite, 1)))
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}

@MainActor final class ProgressBadge {
    private(set) var fraction = 0.0

    init(relay: DownloadRelay) {
        relay.onProgress = { [weak self] fraction in self?.fraction = fraction }
    }
}
