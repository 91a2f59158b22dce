import Dispatch
import Synchronization

/// git's listing of a directory (`GitRepository.listing(in:untracked:)`), started on another
/// thread as soon as the directory is known: the git commands then run while the command line
/// loads its configuration and saved queries, instead of after. A scan of that directory with
/// the same `untracked` takes it (`FileEnumerator`); any other scan lists for itself.
public final class GitListing: Sendable {
    public let directory: String
    public let untracked: Bool
    private let done = DispatchGroup()
    private let outcome = Mutex<(repository: GitRepository, names: Result<[UInt8], InputError>)?>(nil)

    public init(directory: String, untracked: Bool) {
        self.directory = FileEnumerator.trimmingSlash(directory)
        self.untracked = untracked
        DispatchQueue.global().async(group: done) { [self] in
            let listing = GitRepository.listing(in: self.directory, untracked: untracked)
            outcome.withLock { $0 = listing }
        }
    }

    /// The listing, once git is done; nil outside a work tree.
    public var result: (repository: GitRepository, names: Result<[UInt8], InputError>)? {
        done.wait()
        return outcome.withLock { $0 }
    }
}
