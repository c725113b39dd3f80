import BackgroundCore
import Foundation
import Testing
import TrackServer
import TrackServerPostgres

/// Erasure is complete: after `eraseDevice`, no table of the schema (enumerated from the database,
/// not from ``DeviceData/tables``) holds a row with the device's id or a text mentioning its name.
/// A table added later with a `device_id` column but missing from ``DeviceData/tables`` fails here.
/// The row counts before and after are printed for the record.
@Suite("Device erasure leaves nothing of the device")
struct DeviceErasureTests {
    static let name = "erase-me-7q3"

    @Test func sqliteKeepsNothing() async throws {
        let store = try SQLiteTrackStore.inMemory()
        let traces = try await Self.erase(
            store, id: { try await store.anyDeviceID(named: $0) },
            tables: { try await store.tablesWithDeviceColumn() },
            traces: { try await store.deviceTraces(deviceID: $0, name: $1) }, label: "SQLite")
        #expect(traces.isEmpty, "rows left: \(traces)")
    }

    @Test(.postgres) func postgresKeepsNothing() async throws {
        try await PostgresTestDatabase.withStore { store in
            let traces = try await Self.erase(
                store, id: { try await store.anyDeviceID(named: $0) },
                tables: { try await store.tablesWithDeviceColumn() },
                traces: { try await store.deviceTraces(deviceID: $0, name: $1) }, label: "PostgreSQL")
            #expect(traces.isEmpty, "rows left: \(traces)")
        }
    }

    /// Fills every table for the device and a second one, erases it, and returns what is left.
    static func erase(
        _ store: any TrackStore, id: (String) async throws -> Int64?, tables: () async throws -> [String],
        traces: (Int64, String) async throws -> [String: Int], label: String
    ) async throws -> [String: Int] {
        let known = Set(DeviceData.tables.map { $0.lowercased() })
        for table in try await tables() {
            #expect(
                known.contains(table.lowercased()),
                "table \(table) has a device_id column but is not in DeviceData.tables: erasure would leave its rows")
        }
        let now = StoreContract.now
        for device in [name, "bystander"] {
            _ = try await store.addDevice(name: device, tokenHash: "h-\(device)", at: now)
            try await LifecycleContract.fill(store, device: device)
        }
        _ = try await store.revokeDevice(named: name, at: now)  // a revoked device is erased too
        let deviceID = try #require(try await id(name))
        let before = try await traces(deviceID, name)
        #expect(!before.isEmpty)
        let bystander = try await store.deviceRowCounts(device: "bystander")
        _ = try #require(try await store.eraseDevice(named: name))
        let after = try await traces(deviceID, name)
        print("\(label) erasure of \(name): rows per table before \(sorted(before)), after \(sorted(after))")
        #expect(try await store.deviceRowCounts(device: "bystander") == bystander)
        return after
    }

    static func sorted(_ counts: [String: Int]) -> String {
        "{" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
}
