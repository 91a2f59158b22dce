/// git's listing of a directory (`GitRepository.listing(in:untracked:)`), started on another
/// thread as soon as the directory is known: the git commands then run while the command line
/// loads its configuration and saved queries, instead of after. A scan of that directory with
/// the same `untracked` takes it (`FileEnumerator`); any other scan lists for itself.
public final class GitListing: Sendable {
    public let directory: String
    public let untracked: Bool
    private let listing: BackgroundValue<(repository: GitRepository, names: Result<[UInt8], InputError>)?>

    public init(directory: String, untracked: Bool) {
        let directory = FileEnumerator.trimmingSlash(directory)
        self.directory = directory
        self.untracked = untracked
        listing = BackgroundValue { GitRepository.listing(in: directory, untracked: untracked) }
    }

    /// The listing, once git is done; nil outside a work tree.
    public var result: (repository: GitRepository, names: Result<[UInt8], InputError>)? { listing.value }
}
