import Synchronization

extension Array where Element: Sendable {
    /// The non-nil results of `transform` for every index of `0..<count`, in index order, made on
    /// every core: each worker decodes one contiguous stripe of the indices straight into the
    /// array's memory, and the stripes are then moved together (moves, not copies: no retain or
    /// release per element). What a decoder of one big table uses (an ELF symbol table of
    /// 300,000 entries), where `parallelMap`'s hand-off per few elements, or joining per-worker
    /// arrays, would cost about as much as the decoding.
    ///
    /// When `transform` throws for some index, the error of the lowest such index is thrown
    /// (what a serial decoder would have met first) and nothing made is kept.
    package init<Failure: Error>(
        decodingTableOf count: Int, minimumStripe: Int = 8192,
        _ transform: @Sendable (Int) throws(Failure) -> Element?
    ) throws(Failure) {
        let workers = Swift.max(1, Swift.min(activeProcessorCount, count / Swift.max(1, minimumStripe)))
        guard workers > 1 else {
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                if let element = try transform(index) { elements.append(element) }
            }
            self = elements
            return
        }
        let stripe = (count + workers - 1) / workers
        // Per worker: how many elements it made at the start of its stripe, and its first failure.
        let outcomes = Mutex(
            [(made: Int, failure: (index: Int, error: Failure)?)](
                repeating: (0, nil), count: workers))
        var failure: Failure?
        self.init(unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let memory = StripeMemory(buffer)
            WorkerThreads.run(workers) { worker in
                let start = worker * stripe, end = Swift.min(count, start + stripe)
                var made = 0
                var failed: (index: Int, error: Failure)?
                for index in start..<Swift.max(start, end) {
                    do throws(Failure) {
                        guard let element = try transform(index) else { continue }
                        memory.initialize(start + made, to: element)
                        made += 1
                    } catch {
                        failed = (index, error)
                        break
                    }
                }
                outcomes.withLock { $0[worker] = (made, failed) }
            }
            let made = outcomes.withLock { $0 }
            if let first = made.compactMap(\.failure).min(by: { $0.index < $1.index }) {
                for (worker, outcome) in made.enumerated() {
                    memory.deinitialize(from: worker * stripe, count: outcome.made)
                }
                failure = first.error
                initializedCount = 0
                return
            }
            var position = made[0].made
            for worker in 1..<workers {
                memory.move(from: worker * stripe, count: made[worker].made, to: position)
                position += made[worker].made
            }
            initializedCount = position
        }
        if let failure { throw failure }
    }
}

/// The array's memory while the workers fill it: each writes only its own stripe, and the
/// stripes are moved together only after every worker has returned.
private struct StripeMemory<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    init(_ buffer: UnsafeMutableBufferPointer<Element>) { base = buffer.baseAddress! }

    func initialize(_ index: Int, to element: Element) { (base + index).initialize(to: element) }

    func deinitialize(from index: Int, count: Int) { (base + index).deinitialize(count: count) }

    func move(from index: Int, count: Int, to destination: Int) {
        guard index != destination, count > 0 else { return }
        (base + destination).moveInitialize(from: base + index, count: count)
    }
}
