/// Which content a conflict scan reads.
package enum ConflictScope: Sendable, Hashable {
    /// Files on disk: the files git tracks (plus, when asked, untracked files that are not
    /// ignored), or a plain walk outside git.
    case workingTree
    /// The index: what the next commit would hold (for pre-commit hooks).
    case staged
    /// A committed tree such as a release branch head, read through git without a checkout.
    case revision(String)
}
