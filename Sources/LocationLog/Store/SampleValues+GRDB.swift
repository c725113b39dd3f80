package import BackgroundCore
package import GRDB

// The record's GRDB mapping, as a GRDB record type keeps `init(row:)` beside `encode(to:)`. Both
// are every store's hot path (an import binds, a year's export reads, millions of rows), so both
// run concrete, specialised code: the read goes through the record's `@inlinable` field-by-field
// initialiser, and the bind is one array literal a row (see `statementArguments`). The contract check
// `everyFieldOfTheRecordRoundTrips` fails when either misses a field.
extension SampleValues {
    /// The record from a row whose columns from `start` are `Field.columnList`. Throws when a
    /// column holds a value of the wrong type (SQLite does not enforce column types, and a
    /// hand-edited file must not crash the reader).
    package init(row: Row, at start: Int) throws {
        try self.init(
            time: { try row.decode(atIndex: start + Field.time.index) },
            position: { try row.decode(atIndex: start + $0.index) },
            measurement: { try row.decode(atIndex: start + $0.index) },
            flag: { try row.decode(atIndex: start + $0.index) })
    }

    /// A store's row: its own columns before the record's, the record's values in
    /// `Field.columnList` order, then its own columns after them, as one array literal. One
    /// overload per store: the phone's sample row (two columns before, two after) and the
    /// server's (four and four).
    ///
    /// The record's GRDB binding, and the one list of its fields outside its own file. One
    /// literal, because GRDB builds a literal inside its module, where its map is specialised,
    /// whereas an array handed to `StatementArguments(_:)` runs that map generic, through a key
    /// path (an import took 30 % more CPU), and literals joined with `+` allocate at every join
    /// (6 % of an import's CPU).
    package func statementArguments(
        before first: (any DatabaseValueConvertible)?, _ second: (any DatabaseValueConvertible)?,
        after third: (any DatabaseValueConvertible)?, _ fourth: (any DatabaseValueConvertible)?
    ) -> StatementArguments {
        [
            first, second, time.milliseconds, latitude, longitude, accuracy, verticalAccuracy, altitude, speed, course,
            battery, charging, third, fourth,
        ]
    }

    package func statementArguments(
        before first: (any DatabaseValueConvertible)?, _ second: (any DatabaseValueConvertible)?,
        _ third: (any DatabaseValueConvertible)?, _ fourth: (any DatabaseValueConvertible)?,
        after fifth: (any DatabaseValueConvertible)?, _ sixth: (any DatabaseValueConvertible)?,
        _ seventh: (any DatabaseValueConvertible)?, _ eighth: (any DatabaseValueConvertible)?
    ) -> StatementArguments {
        [
            first, second, third, fourth, time.milliseconds, latitude, longitude, accuracy, verticalAccuracy, altitude,
            speed, course, battery, charging, fifth, sixth, seventh, eighth,
        ]
    }
}
