public import Foundation

/// The `200` body of `POST /v1/batches` (docs/protocol.md §Acknowledgement).
///
/// The phone deletes exactly `accepted` + `duplicates` and quarantines `rejected`; anything the
/// response does not mention stays pending and is sent again.
public struct BatchResponse: Codable, Hashable, Sendable {
    /// Always `"ok"` in a `200` answer.
    public var result: String
    /// Ids stored durably by this request.
    public var accepted: [String]
    /// Ids the server already had (a re-sent batch); as good as accepted.
    public var duplicates: [String]
    /// Samples the server will never accept, with the reason.
    public var rejected: [Rejection]
    /// Gap ids (version 2) stored by this request or already stored; absent when the batch had none.
    public var gapsStored: [String]? = nil
    /// Gaps the server will never accept, with the reason; absent when the batch had none.
    public var gapsRejected: [Rejection]? = nil
    /// Why the batch's `tz` (version 3) was not taken, e.g. a name the server's tz database does
    /// not know; absent when it was taken or the batch had none. The samples are stored either way.
    public var tzRejected: String? = nil

    public struct Rejection: Codable, Hashable, Sendable {
        public var id: String
        /// Says what is wrong, e.g. `latitude 91.2 is outside -90…90`.
        public var reason: String

        public init(id: String, reason: String) {
            self.id = id
            self.reason = reason
        }
    }

    public init(accepted: [String] = [], duplicates: [String] = [], rejected: [Rejection] = []) {
        self.result = "ok"
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
    }

    /// Reads a body leniently: missing arrays read as empty, so an older server stays compatible.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        result = try container.decodeIfPresent(String.self, forKey: .result) ?? "ok"
        accepted = try container.decodeIfPresent([String].self, forKey: .accepted) ?? []
        duplicates = try container.decodeIfPresent([String].self, forKey: .duplicates) ?? []
        rejected = try container.decodeIfPresent([Rejection].self, forKey: .rejected) ?? []
        gapsStored = try container.decodeIfPresent([String].self, forKey: .gapsStored)
        gapsRejected = try container.decodeIfPresent([Rejection].self, forKey: .gapsRejected)
        tzRejected = try container.decodeIfPresent(String.self, forKey: .tzRejected)
    }
}

/// The body of a non-2xx answer: `{"error": "…"}`.
public struct ErrorResponse: Codable, Hashable, Sendable {
    public var error: String
    public init(error: String) { self.error = error }
}

extension BatchResponse {
    /// Server texts (rejection reasons, error messages) longer than this are cut.
    public static let maximumReasonLength = 500

    /// The acknowledgement as UUIDs; ids that are not UUIDs are dropped (they cannot be ours).
    public var acknowledgement: BatchAcknowledgement {
        BatchAcknowledgement(
            stored: Set((accepted + duplicates).compactMap(UUID.init(uuidString:))),
            rejected: rejected.reduce(into: [:]) { result, rejection in
                // The reason is kept in the quarantine table and the log: bound what a server can make
                // the phone store.
                if let id = UUID(uuidString: rejection.id) {
                    result[id] = String(rejection.reason.prefix(Self.maximumReasonLength))
                }
            },
            gaps: Set(((gapsStored ?? []) + (gapsRejected ?? []).map(\.id)).compactMap(UUID.init(uuidString:))))
    }
}

/// What the server said about the samples of one batch, in the phone's terms.
public struct BatchAcknowledgement: Hashable, Sendable {
    /// Accepted or duplicate: safe to delete.
    public var stored: Set<UUID>
    /// Never acceptable: quarantine with the reason.
    public var rejected: [UUID: String]
    /// Gap intervals the server stored, already had or will never accept: each is done with and
    /// leaves the phone (a refused gap is a reason the server cannot read, not a sample to keep).
    public var gaps: Set<UUID> = []

    public init(stored: Set<UUID> = [], rejected: [UUID: String] = [:], gaps: Set<UUID> = []) {
        self.stored = stored
        self.rejected = rejected
        self.gaps = gaps
    }
}
