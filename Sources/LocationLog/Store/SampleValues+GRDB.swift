package import BackgroundCore
package import GRDB

// The record's GRDB mapping, as a GRDB record type keeps `init(row:)` beside `encode(to:)`: both
// list the fields in `Field.columnList` order, by position, with concrete types, because this is
// every store's hot path (an import binds, a year's export reads, millions of rows). The contract
// check `everyFieldOfTheRecordRoundTrips` fails when either misses a field.
extension SampleValues {
    /// The record from a row whose columns from `start` are `Field.columnList`. Throws when a
    /// column holds a value of the wrong type (SQLite does not enforce column types, and a
    /// hand-edited file must not crash the reader).
    package init(row: Row, at start: Int) throws {
        self.init(
            time: Instant(milliseconds: try row.decode(atIndex: start + Field.time.index)),
            latitude: try row.decode(atIndex: start + Field.latitude.index),
            longitude: try row.decode(atIndex: start + Field.longitude.index),
            accuracy: try row.decode(atIndex: start + Field.accuracy.index),
            verticalAccuracy: try row.decode(atIndex: start + Field.verticalAccuracy.index),
            altitude: try row.decode(atIndex: start + Field.altitude.index),
            speed: try row.decode(atIndex: start + Field.speed.index),
            course: try row.decode(atIndex: start + Field.course.index),
            battery: try row.decode(atIndex: start + Field.battery.index),
            charging: try row.decode(atIndex: start + Field.charging.index))
    }

    /// The record's values as GRDB binds them, in `Field.columnList` order.
    package var databaseArguments: [DatabaseValue] {
        [
            time.milliseconds.databaseValue, latitude.databaseValue, longitude.databaseValue,
            accuracy.databaseValue, verticalAccuracy.databaseValue, altitude.databaseValue, speed.databaseValue,
            course.databaseValue, battery.databaseValue, charging.databaseValue,
        ]
    }
}
