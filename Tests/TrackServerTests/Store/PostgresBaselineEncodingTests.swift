import BackgroundCore
import PostgresBaselines
import PostgresNIO
import Testing
import TrackServer
import TrackServerPostgres

/// `bgtrack-bench postgres` encodes its baselines' rows itself (COPY text, arrays with NULLs):
/// every value must come back as the store's `INSERT` would have stored it.
@Suite("bgtrack-bench postgres: baseline row encodings")
struct PostgresBaselineEncodingTests {
    @Test func aFieldEscapesWhatCOPYReadsAsSyntax() {
        #expect(CopyText.field(nil) == #"\N"#)
        #expect(CopyText.field(#"\N"#) == #"\\N"#)
        #expect(CopyText.field("a\tb\nc\rd\\e") == #"a\tb\nc\rd\\e"#)
        #expect(CopyText.field("Zürich 🚲, \"quoted\" 'x'") == "Zürich 🚲, \"quoted\" 'x'")
        #expect(CopyText.field("") == "")
        #expect(CopyText.row(["a", nil, "b\tc"]) == "a\t\\N\tb\\tc\n")
    }

    /// Awkward text, NULLs, tiny and huge numbers, false: the rows the COPY baseline and the unnest
    /// baseline (``NullableArray`` binds) store read back equal.
    @Test(.postgres, arguments: [PostgresBaseline.copy, .unnestInsert])
    func aSampleRowRoundTrips(through baseline: PostgresBaseline) async throws {
        let samples = [
            TrackSample(
                key: "tab\there\nnewline\\backslash\r", id: #"\N"#, seq: 1,
                values: SampleValues(
                    time: Instant(milliseconds: 1_000), latitude: 31.2 + 1e-6, longitude: -121.40000000000001,
                    accuracy: 1e-7, altitude: -0.5, speed: 1.2e300, course: 359.9999, battery: 0.8, charging: false),
                trigger: "Zürich 🚲", state: "", source: .owntracks),
            TrackSample(
                key: "p:2000:312000000:1214000000",
                values: SampleValues(time: Instant(milliseconds: 2_000), latitude: 0, longitude: 0), source: .native),
        ]
        let configuration = try PostgresTestDatabase.freshConfiguration()
        let logger = PostgresTestDatabase.logger
        let stored = try await PostgresTestDatabase.withSchema(configuration) {
            try await PostgresTrackStore.withStore(configuration, logger: logger) { store in
                _ = try await store.addDevice(name: "bench", tokenHash: "x", at: Instant(milliseconds: 0))
                let connection = try await PostgresBenchDatabase.connect(configuration, logger: logger)
                do {
                    let deviceID = try await PostgresBenchDatabase.scalar(
                        connection, "SELECT id FROM device WHERE name = 'bench'", as: Int64.self, logger: logger)
                    if baseline == .copy {
                        let text = samples.map { CopyText.sampleRow($0, deviceID: deviceID, receivedAt: 5) }.joined()
                        try await connection.copyFrom(
                            table: "sample", columns: CopyText.sampleColumns, logger: logger
                        ) { try await $0.write(ByteBuffer(string: text)) }
                    } else {
                        let query = try PostgresBaseline.unnestQuery(samples, deviceID: deviceID, receivedAt: 5)
                        let keys = try await connection.query(query, logger: logger).collect()
                        #expect(keys.count == samples.count)
                    }
                    try await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
                return try await store.samples(
                    device: "bench", from: Instant(milliseconds: 0), to: Instant(milliseconds: 10_000), limit: nil)
            }
        }
        #expect(stored == samples)
    }
}
