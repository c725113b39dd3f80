package import PostgresNIO

/// A one-dimensional PostgreSQL array bind whose elements may be NULL, in the binary array format
/// (`array_recv`): PostgresNIO 1.33.2 encodes `[T]` but not `[T?]`, and the sample insert binds
/// one array per column (`unnest`), where most columns are nullable.
package struct NullableArray<Element: PostgresArrayEncodable>: PostgresEncodable {
    package var values: [Element?]

    package init(_ values: [Element?]) { self.values = values }

    package static var psqlType: PostgresDataType { Element.psqlArrayType }
    package static var psqlFormat: PostgresFormat { .binary }

    package func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        // Header: dimensions (0 for an empty array), has-NULL flag, element type, then per dimension
        // its length and lower bound.
        guard let count = Int32(exactly: values.count) else {
            throw PostgresStoreError("an array of \(values.count) elements is too long for one PostgreSQL bind")
        }
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(values.contains(where: { $0 == nil }) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(count)
        buffer.writeInteger(1, as: Int32.self)
        for value in values {
            guard let value else {
                buffer.writeInteger(-1, as: Int32.self)  // NULL
                continue
            }
            let lengthAt = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let start = buffer.writerIndex
            try value.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - start), at: lengthAt)
        }
    }
}
