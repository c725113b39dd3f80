package import BackgroundCore
package import GRDB

extension SampleValues {
    /// The record's values as GRDB binds them, in `Field.columnList` order.
    package var databaseArguments: [DatabaseValue] {
        [
            time.milliseconds.databaseValue, latitude.databaseValue, longitude.databaseValue,
            accuracy.databaseValue, verticalAccuracy.databaseValue, altitude.databaseValue, speed.databaseValue,
            course.databaseValue, battery.databaseValue, charging.databaseValue,
        ]
    }
}
