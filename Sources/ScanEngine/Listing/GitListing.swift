import Synchronization

/// git's listing of a directory (`GitRepository.listing(in:untracked:)`), started on another
/// thread as soon as the directory is known: git runs, and its output becomes names, while
/// the command line loads its configuration and saved queries, instead of after. A scan of
/// that directory with the same `untracked` takes it (`FileEnumerator`); any other scan lists
/// for itself.
package final class GitListing: Sendable {
    package let directory: String
    package let untracked: Bool
    /// The tracked names, from git's thread to the scan's as git writes them.
    private let feed: ListingFeed
    /// The repository and whether git could list the index, once it is done (the names went to
    /// `feed`).
    private let listing: BackgroundValue<(repository: GitRepository, names: Result<[ListedName], InputError>)?>
    /// With `untracked`, the untracked files, from a second git walking the work tree meanwhile.
    private let untrackedListing: BackgroundValue<Result<[ListedName], InputError>>?
    private let taken = Atomic<Bool>(false)

    private init(directory: String, untracked: Bool) {
        self.directory = directory
        self.untracked = untracked
        let feed = ListingFeed()
        self.feed = feed
        listing = BackgroundValue {
            defer { feed.finish() }
            return GitRepository.trackedListing(in: directory, feed: feed)
        }
        untrackedListing = untracked ? GitRepository.startUntrackedListing(in: directory) : nil
    }

    /// The listing as git writes it: `body` gets the names in order, `batch` or more at a time
    /// (the last ones fewer) while git still lists — the index's files, then the untracked ones
    /// when the work tree's walk is over; returned, once git is done, the repository and
    /// whether git could list (nil outside a work tree). With `deferringUntracked`, it returns
    /// as soon as the index is listed, the untracked names still to come in `untracked` (a
    /// scan reads the index's files meanwhile). Handed over once, keeping no name here
    /// (freeing them all at the process's end delayed its exit after a run's last line: see
    /// docs/performance.md); asked again, git lists again.
    package func take(inBatchesOf batch: Int, deferringUntracked: Bool = false, _ body: ([ListedName]) -> Void)
        -> (
            repository: GitRepository, listed: Result<Void, InputError>,
            untracked: BackgroundValue<Result<[ListedName], InputError>>?
        )?
    {
        if taken.exchange(true, ordering: .relaxed) {
            guard let listed = GitRepository.listing(in: directory, untracked: untracked) else { return nil }
            if let names = try? listed.names.get(), !names.isEmpty { body(names) }
            return (listed.repository, listed.names.map { _ in }, nil)
        }
        while case let names = feed.take(atLeast: batch), !names.isEmpty { body(names) }
        guard let listed = listing.value else { return nil }
        if let names = try? listed.names.get(), !names.isEmpty { body(names) }
        guard case .success = listed.names, let untrackedListing else {
            return (listed.repository, listed.names.map { _ in }, nil)
        }
        if deferringUntracked { return (listed.repository, .success(()), untrackedListing) }
        let untracked = untrackedListing.value
        if let names = try? untracked.get(), !names.isEmpty { body(names) }
        return (listed.repository, untracked.map { _ in }, nil)
    }

    /// Starts listing `directory`, or hands over the listing `startGuessed` already started
    /// for that directory in the same mode.
    package static func start(directory: String, untracked: Bool) -> GitListing {
        let directory = FileEnumerator.trimmingSlash(directory)
        if let guessed = guessed.withLock({ $0.take() }), guessed.directory == directory, guessed.untracked == untracked
        {
            return guessed
        }
        return GitListing(directory: directory, untracked: untracked)
    }

    /// Starts a listing before the command line is parsed, for the directory and mode a
    /// command will most likely scan: parsing (ArgumentParser reflects the command tree; the
    /// Swift runtime scans every conformance record of a large binary for each new type it
    /// checks) takes longer than git takes to list a large index (docs/performance.md). The
    /// command's `start` takes it when the guess was right; a wrong guess costs one read-only
    /// git run on another thread, which nothing waits for.
    @discardableResult
    package static func startGuessed(directory: String, untracked: Bool) -> GitListing {
        let listing = GitListing(directory: FileEnumerator.trimmingSlash(directory), untracked: untracked)
        guessed.withLock { $0 = listing }
        return listing
    }

    private static let guessed = Mutex<GitListing?>(nil)
}
