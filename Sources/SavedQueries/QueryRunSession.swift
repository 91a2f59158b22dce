import ScanEngine
import ShipcheckCore
import Synchronization

/// `query run` as the scan goes: each file's matches of each query are fingerprinted from the
/// file's bytes and compared with the file's block of the previous run (or, for a file
/// unchanged since, neither), added to the query's new state and (for the text report)
/// written out, in listing order. Nothing here grows with the match count — unless the
/// findings are kept for a report format that needs them all.
package final class QueryRunSession: QueryRunSink, Sendable {
    /// Read by `prepare` on every searching thread, borrowed (`SharedObjects`): never changed
    /// after `init`.
    private let matchContexts: SharedObjects<QueryMatchContext>
    private let text: QueryRunText?
    /// Touched by one call at a time, each on whichever thread makes it: `matched` in listing
    /// order during the scan (see `QueryRunSink`), `scanEnded` and `finish` after. The lock is
    /// never contended; it makes those hand-overs ones the compiler checks.
    private let progress: Mutex<Progress>

    private struct Progress {
        var refreshes: [QueryRefresh]
        var states: [StateWriter]
        /// The states being written, from `scanEnded` until `finish`.
        var commits: BackgroundValue<[InputError?]>?
        /// States that cannot be written, a report that cannot be.
        var errors: [InputError]
    }

    package var refreshes: [QueryRefresh] { progress.withLock { $0.refreshes } }
    package var errors: [InputError] { progress.withLock { $0.errors } }

    /// With `text`, the text report is written to its output as the run goes and findings are
    /// not kept; without, `refreshes` keep every finding.
    package init(
        queries: [ScopedQuery], root: String, ranAt: Double, text: (output: ByteOutput, color: Bool, heading: Bool)?
    ) {
        // The previous runs' manifests load side by side: with many queries, each a file to parse.
        let keepsFindings = text == nil
        let contexts = queries.parallelMap { scoped in
            QueryRefresh.Context(
                query: scoped,
                previous: PreviousState.load(
                    manifest: QueryState.path(root: root, query: scoped.query, scope: scoped.scope)),
                keepsFindings: keepsFindings)
        }
        let refreshes = contexts.map(QueryRefresh.init)
        let layouts = text.map { text in
            queries.map {
                QueryRunText.Layout(query: $0, color: text.color, heading: text.heading, named: queries.count > 1)
            }
        }
        matchContexts = SharedObjects(
            contexts.indices.map { QueryMatchContext(context: contexts[$0], layout: layouts?[$0]) })
        var errors: [InputError] = []
        let states = contexts.map { context in
            StateWriter(
                manifest: QueryState.path(root: root, query: context.query.query, scope: context.query.scope),
                query: context.query.query,
                ranAt: ranAt, previous: context.keepsUnchangedBlocks ? context.previous : nil)
        }
        do throws(InputError) {
            self.text = try text.map { text throws(InputError) in
                try QueryRunText(queries: queries, output: text.output, color: text.color, heading: text.heading)
            }
        } catch {
            errors.append(error)
            self.text = nil
        }
        progress = Mutex(Progress(refreshes: refreshes, states: states, errors: errors))
    }

    package func prepare(
        query: Int, path: String, digest: PathDigest, key: FileKey?, bytes: borrowing ByteView, ranges: [Range<Int>]
    ) -> FileRefresh {
        matchContexts.borrow(query) {
            $0.context.file(path: path, digest: digest, key: key, bytes: bytes, ranges: ranges, text: $0.layout)
        }
    }

    package func matched(query: Int, _ file: FileRefresh) {
        progress.withLock { progress in
            progress.refreshes[query].record(file)
            progress.states[query].add(file)
        }
        text?.write(query: query, file.text)
    }

    /// The scan's end: each query's counts and what is gone (read from the previous state before
    /// the new one replaces it), then the new state of every query whose run was complete (a
    /// run the timeout cut short keeps the old state) starts being written.
    package func scanEnded(_ results: [QueryRunResult]) {
        let writers = progress.withLock { progress in
            for (index, result) in results.enumerated() { progress.refreshes[index].finish(result) }
            return progress.states
        }
        // Each query's state is its own manifest, segments and lock: they are written side by
        // side (with many queries, encoding the manifests is most of a run's end), and beside
        // what follows on this thread — the scan letting go of its listing, the report's end
        // (the spooled sections of the other queries copied out) — which needs nothing from them.
        let complete = results.indices.filter { results[$0].isComplete }
        let commits = BackgroundValue {
            complete.parallelMap { index -> InputError? in
                do throws(InputError) { try writers[index].commit() } catch { return error }
                return nil
            }
        }
        progress.withLock { $0.commits = commits }
    }

    /// After the scan (and `scanEnded`): the report's end, and the states written.
    package func finish() {
        progress.withLock { progress in
            var reportError: InputError?
            do throws(InputError) { try text?.finish(progress.refreshes) } catch { reportError = error }
            progress.errors += progress.commits?.value.compactMap { $0 } ?? []
            progress.errors += reportError.map { [$0] } ?? []
            progress.commits = nil
            // The states of runs cut short: their segments go now, before the run's result is seen.
            for state in progress.states { state.discard() }
            progress.states = []
        }
    }
}

/// What one query's matches in a file are made ready with: its comparison with the previous
/// run and the text report's layout, in an object of its own so every searching thread can
/// borrow it instead of copying (and retaining) what it holds, file after file.
private final class QueryMatchContext: Sendable {
    let context: QueryRefresh.Context
    let layout: QueryRunText.Layout?

    init(context: QueryRefresh.Context, layout: QueryRunText.Layout?) {
        self.context = context
        self.layout = layout
    }
}
