import NIOCore
import NIOPosix

/// Where the server's Swift concurrency runs.
package enum ServerThreads {
    /// Runs Swift concurrency's global executor on SwiftNIO's event loops (the threads that already
    /// read and write every connection), so a request handler and its connection share one thread
    /// instead of hopping between the event loop and the cooperative pool at each read and write.
    /// On two cores the hops and the doubled set of busy threads cost more than the handler itself
    /// (issue 23's single-point profile). Nothing in the server blocks a concurrency thread: the
    /// database work runs on GRDB's own queues or on PostgresNIO's event loops.
    ///
    /// Call it once, first thing in the process; `false` when the runtime does not allow it (the
    /// server then runs as before). Only `bgtrack-bench single-point --executor event-loops` uses
    /// it, for comparison: `bgtrack serve` does not, since single-point ingest measured slower
    /// with it (BENCHMARKS.md, issue 23).
    @discardableResult
    package static func adoptEventLoopsAsGlobalExecutor() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
