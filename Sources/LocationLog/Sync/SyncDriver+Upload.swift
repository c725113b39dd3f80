import BackgroundCore
public import Foundation

extension SyncDriver {
    /// A batch the machine asked for, read from the store and ready to send.
    public struct Upload: Hashable, Sendable {
        /// The oldest pending samples, at most the machine's batch size, never empty.
        public let samples: [Sample]
        /// The gap intervals that ride with them (batch version 2 when there are any).
        public let gaps: [WireGap]
        /// The device name the batch carries; `nil` sends none (the token names the device).
        public let device: String?
        /// The IANA zone the phone is in (`TimeZone.current.identifier`), sent as the batch's `tz`
        /// (version 3); `nil` sends a batch an older server reads unchanged.
        public var timeZone: String? = nil

        /// The ids of the samples sent: the machine deletes only acknowledged ones among them.
        public var sent: Set<UUID> { Set(samples.map(\.id)) }

        /// Derived from the sample ids, so re-sending the same samples sends the same batch id.
        public var batchID: UUID { BatchRequest.batchID(for: samples.map(\.id)) }

        /// The body of `POST /v1/batches` (build the HTTP request with
        /// ``BatchRequest/urlRequest(server:token:gzip:timeout:)``).
        public var request: BatchRequest {
            BatchRequest(
                batch: batchID.wireString, device: device, samples: samples.map(WireSample.init), gaps: gaps,
                timeZone: timeZone)
        }
    }

    /// What the driver's steps did, added up over as many steps as the shell likes.
    public struct Tally: Hashable, Sendable {
        /// Non-empty batches whose answer the machine heard, and how many of them were acknowledged.
        public var attempts = 0
        public var acknowledged = 0
        /// Samples deleted (acknowledged) and moved aside (rejected by the server).
        public var deleted = 0
        public var quarantined = 0
        /// Every upload outcome heard, oldest first.
        public var outcomes: [UploadOutcome] = []
        /// What the machine asked the shell to tell the user, oldest first.
        public var notices: [SyncMachine.Notice] = []
        /// Samples the server answered whose answer the store could not write yet (a full disk):
        /// they stay in the store, are not sent again, and are deleted when it takes the write.
        public var awaitingWrite = 0

        public init() {}
    }
}
