import Synchronization

/// git's listing of a directory (`GitRepository.listing(in:untracked:)`), started on another
/// thread as soon as the directory is known: git runs, and its output becomes names, while
/// the command line loads its configuration and saved queries, instead of after. A scan of
/// that directory with the same `untracked` takes it (`FileEnumerator`); any other scan lists
/// for itself.
public final class GitListing: Sendable {
    public let directory: String
    public let untracked: Bool
    private let listing: BackgroundValue<(repository: GitRepository, names: Result<[ListedName], InputError>)?>

    private init(directory: String, untracked: Bool) {
        self.directory = directory
        self.untracked = untracked
        listing = BackgroundValue { GitRepository.listing(in: directory, untracked: untracked) }
    }

    /// The listing, once git is done; nil outside a work tree. Handed over: the names go with
    /// it rather than staying here until the process ends (freeing tens of thousands of them
    /// was most of a millisecond after a run's last line); asked again, git lists again.
    public func take() -> (repository: GitRepository, names: Result<[ListedName], InputError>)? {
        if let taken = listing.take() { return taken }
        return GitRepository.listing(in: directory, untracked: untracked)
    }

    /// Starts listing `directory`, or hands over the listing `startGuessed` already started
    /// for that directory in the same mode.
    public static func start(directory: String, untracked: Bool) -> GitListing {
        let directory = FileEnumerator.trimmingSlash(directory)
        if let guessed = guessed.withLock({ $0.take() }), guessed.directory == directory, guessed.untracked == untracked { return guessed }
        return GitListing(directory: directory, untracked: untracked)
    }

    /// Starts a listing before the command line is parsed, for the directory and mode a
    /// command will most likely scan: parsing takes several milliseconds (ArgumentParser
    /// reflects the command tree; the Swift runtime scans every conformance record of a large
    /// binary for each new type it checks), longer than git takes to list a large index. The
    /// command's `start` takes it when the guess was right; a wrong guess costs one read-only
    /// git run on another thread, which nothing waits for.
    @discardableResult
    public static func startGuessed(directory: String, untracked: Bool) -> GitListing {
        let listing = GitListing(directory: FileEnumerator.trimmingSlash(directory), untracked: untracked)
        guessed.withLock { $0 = listing }
        return listing
    }

    private static let guessed = Mutex<GitListing?>(nil)
}
