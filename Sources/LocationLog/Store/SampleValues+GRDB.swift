package import BackgroundCore
package import GRDB

// The record's GRDB mapping, as a GRDB record type keeps `init(row:)` beside `encode(to:)`. Both
// are every store's hot path (an import binds, a year's export reads, millions of rows), so both
// run concrete, specialised code: the read goes through the record's `@inlinable` field-by-field
// initialiser, and the bind is one array literal (see `statementArguments`). The contract check
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

    /// The record's values in `Field.columnList` order, for a store to put between its own
    /// columns: `[id, …] + values.statementArguments + […]`.
    ///
    /// The one list of the fields outside the record's own file: GRDB builds an array literal
    /// inside its module, where its map is specialised, whereas an array handed to
    /// `StatementArguments(_:)` runs that map generic, through a key path, which cost an import
    /// 30 % more CPU.
    package var statementArguments: StatementArguments {
        [
            time.milliseconds, latitude, longitude, accuracy, verticalAccuracy, altitude, speed, course, battery,
            charging,
        ]
    }
}
