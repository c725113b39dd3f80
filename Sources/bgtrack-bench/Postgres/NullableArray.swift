import PostgresNIO

/// A one-dimensional PostgreSQL array bind whose elements may be NULL, in the binary array format
/// (`array_recv`): PostgresNIO 1.33.2 encodes `[T]` but not `[T?]`, and the unnest baseline binds
/// one array per column, where most columns are nullable.
struct NullableArray<Element: PostgresArrayEncodable>: PostgresEncodable {
    var values: [Element?]

    init(_ values: [Element?]) { self.values = values }

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        // Header: dimensions (0 for an empty array), has-NULL flag, element type, then per dimension
        // its length and lower bound.
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(values.contains(where: { $0 == nil }) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))
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
