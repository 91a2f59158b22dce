import Foundation

/// The names of one git listing on their way from the thread taking git's output apart to
/// the scan that lists them: the scan turns them into files while git still works through the
/// index, instead of all twenty thousand after git exits with a core idle meanwhile. One
/// consumer; what it takes leaves the feed.
final class ListingFeed: @unchecked Sendable {
    // Unchecked: the variables are only touched with `condition` locked.
    private let condition = NSCondition()
    private var names: [ListedName] = []
    private var finished = false
    /// How many names the consumer waits for: it is woken once per batch, not once per chunk
    /// git writes.
    private var wanted = 1

    /// More names, in listing order.
    func publish(_ more: ArraySlice<ListedName>) {
        condition.lock()
        defer { condition.unlock() }
        names.append(contentsOf: more)
        if names.count >= wanted { condition.signal() }
    }

    /// No more names will come: git is done, or could not list.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.signal()
    }

    /// The names waiting, once there are at least `minimum` (or git is done): taken out of
    /// the feed. Empty once the listing has ended and every name was taken.
    func take(atLeast minimum: Int) -> [ListedName] {
        condition.lock()
        defer { condition.unlock() }
        wanted = minimum
        while names.count < minimum && !finished { condition.wait() }
        let taken = names
        names = []
        return taken
    }
}
