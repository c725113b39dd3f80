import ArgumentParser
import Foundation
import Logging
import TrackServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bgtrack serve`'s timeouts and connection limit (``ConnectionLimits``).
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Seconds a new connection has to send its first request head (silent and slowloris sockets).")
    var headerTimeout = 15
    @Option(help: "Seconds a request has from its head to the end of its body.") var requestTimeout = 120
    @Option(help: "Seconds a kept-alive connection may stay silent between requests.") var idleTimeout = 60
    @Option(
        help: ArgumentHelp(
            "Connections open at once; more are answered 503 with Retry-After. Lowered to fit the "
                + "open-file limit, which serve raises to its hard maximum at start."))
    var maxConnections = 16_384

    func validate() throws {
        for (flag, value) in [
            ("--header-timeout", headerTimeout), ("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout),
        ] where !(1...86_400).contains(value) {
            throw ValidationError("\(flag) \(value) must be between 1 and 86400 seconds")
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections \(maxConnections) must be between 1 and 1000000")
        }
    }

    /// The limits, with the connection limit fitted under the open-file limit (after raising it).
    func limits(logger: Logger) -> ConnectionLimits {
        var limits = ConnectionLimits()
        limits.headerTimeout = .seconds(headerTimeout)
        limits.requestTimeout = .seconds(requestTimeout)
        limits.idleTimeout = .seconds(idleTimeout)
        let files = Self.raiseOpenFileLimit()
        if let (before, after) = files, before != after {
            logger.notice("raised the open-file limit", metadata: ["from": "\(before)", "to": "\(after)"])
        }
        // Room for the database, the log, the listening socket and accepting at the limit.
        let fitting = files.map { max(16, $0.after - 128) } ?? maxConnections
        limits.maxConnections = min(maxConnections, fitting)
        if limits.maxConnections < maxConnections {
            logger.warning(
                "--max-connections lowered to fit the open-file limit; raise it (ulimit -Hn, LimitNOFILE=) for more",
                metadata: ["requested": "\(maxConnections)", "using": "\(limits.maxConnections)"])
        }
        return limits
    }

    /// Raises the soft open-file limit to the hard one, as nginx (`worker_rlimit_nofile`) and Go
    /// programs do: a 1,024 soft limit would let 1,100 silent sockets take the server down.
    static func raiseOpenFileLimit() -> (before: Int, after: Int)? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let before = Int(clamping: limit.rlim_cur)
        // Darwin refuses RLIM_INFINITY for files; OPEN_MAX-sized caps keep this portable.
        let target = min(limit.rlim_max, rlim_t(1 << 20))
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return (before, Int(clamping: limit.rlim_cur))
    }
}
