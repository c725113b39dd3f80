import Foundation
import LinuxDevice
import LocationLog
import Testing

/// How HTTP answers map to the sync machine's outcomes (no network needed).
@Suite struct TransportMappingTests {
    func outcome(_ status: Int, _ body: String = "", retryAfter: String? = nil) -> UploadOutcome {
        URLSessionBatchTransport.outcome(status: status, body: Data(body.utf8), retryAfter: retryAfter)
    }

    @Test func everyResponseClassMaps() {
        let id = UUID()
        let ok = #"{"result":"ok","accepted":["\#(id.wireString)"],"duplicates":[],"rejected":[]}"#
        #expect(outcome(200, ok) == .acknowledged(BatchAcknowledgement(stored: [id])))
        #expect(
            outcome(200, "<html>proxy login</html>")
                == .unexpectedResponse(message: "HTTP 200 without a batch response: <html>proxy login</html>"))
        #expect(outcome(400, #"{"error":"body is not JSON"}"#) == .badRequest(message: "body is not JSON"))
        #expect(outcome(401, #"{"error":"unknown token"}"#) == .unauthorized(status: 401, message: "unknown token"))
        #expect(outcome(403) == .unauthorized(status: 403, message: "(empty body)"))
        #expect(outcome(413) == .tooLarge)
        #expect(outcome(429, retryAfter: "120") == .rateLimited(retryAfter: .seconds(120)))
        #expect(outcome(429, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT") == .rateLimited(retryAfter: nil))
        #expect(outcome(503, "busy") == .serverError(status: 503, message: "busy"))
        #expect(outcome(404, "no route") == .clientError(status: 404, message: "no route"))
        #expect(outcome(302, "") == .unexpectedResponse(message: "HTTP 302: (empty body)"))
    }

    /// A `200` whose body is the error shape (a proxy or a broken server) acknowledges nothing;
    /// read leniently it looked like an empty success.
    @Test func a200WithAnErrorBodyIsNotAnAcknowledgement() {
        #expect(
            outcome(200, #"{"error":"database is locked"}"#)
                == .unexpectedResponse(message: "HTTP 200 with an error body: database is locked"))
        #expect(outcome(200, #"{"result":"error","accepted":[]}"#).isAcknowledged == false)
    }

    /// A server's texts end up in the phone's diagnostics log, notifications and quarantine table:
    /// a megabyte-long error or rejection reason is cut, not stored whole.
    @Test func hugeServerTextsAreBounded() {
        let huge = String(repeating: "x", count: 1 << 20)
        guard case .serverError(_, let message) = outcome(503, #"{"error":"\#(huge)"}"#) else {
            Issue.record("expected a server error")
            return
        }
        #expect(message.count == BatchResponse.maximumReasonLength)
        let id = UUID()
        let response = BatchResponse(rejected: [.init(id: id.wireString, reason: huge)])
        #expect(response.acknowledgement.rejected[id]?.count == BatchResponse.maximumReasonLength)
    }

    /// Nothing listens on the port: a network error, never a crash or a hang.
    @Test func unreachableServerIsANetworkError() async throws {
        let transport = URLSessionBatchTransport(
            server: try #require(URL(string: "http://127.0.0.1:1")), token: "t", timeout: .seconds(5))
        let result = await transport.send(BatchRequest(batch: "b", device: "d", samples: []))
        guard case .networkError(let message) = result else {
            Issue.record("expected a network error, got \(result)")
            return
        }
        #expect(message.contains("127.0.0.1:1/v1/batches"))
    }
}

extension UploadOutcome {
    fileprivate var isAcknowledged: Bool {
        if case .acknowledged = self { return true }
        return false
    }
}
