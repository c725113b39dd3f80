package import BackgroundCore
package import GRDB

extension SampleValues.Stored {
    /// The value as GRDB binds it.
    package var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .boolean(let value): value.databaseValue
        case .null: .null
        }
    }
}
