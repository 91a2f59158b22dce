/// Objects that every thread of a scan's read pass uses for every file (the checks, their
/// clocks, a check's compiled queries), lent to a call without a reference count.
///
/// Swift retains an object it loads from an array for as long as a call uses it, and releases
/// it after: two atomic writes to the object's header. When both cores do that to the same few
/// objects for every file, the cache line holding each header moves from core to core on
/// nearly every access (see docs/performance.md, "Lending shared objects"). The array keeps
/// the objects alive for as long as this value exists, so `borrow` can lend them unretained.
package struct SharedObjects<Object: AnyObject & Sendable>: @unchecked Sendable {
    /// The objects, strongly held: what keeps them alive.
    package let objects: [Object]
    @usableFromInline let unretained: [Unmanaged<Object>]

    package init(_ objects: [Object]) {
        self.objects = objects
        unretained = objects.map { Unmanaged.passUnretained($0) }
    }

    package var count: Int { objects.count }
    package var indices: Range<Int> { objects.indices }

    /// `body` with the object at `index`, which it must not keep. (The caller's `self` keeps
    /// `objects` alive meanwhile.)
    @inlinable
    package func borrow<Result>(_ index: Int, _ body: (Object) throws -> Result) rethrows -> Result {
        try unretained[index]._withUnsafeGuaranteedRef(body)
    }
}
