import Foundation
import HTTPTypes
import Logging

/// Parses a request body as JSON, refusing documents nested deeper than `maxDepth` before any
/// recursive decoding starts (a 100,000-deep `[[[…` would otherwise recurse that deep).
enum JSONBody {
    static let maxDepth = 32

    static func parse(_ bytes: [UInt8]) throws(APIError) -> JSONValue {
        try checkDepth(bytes)
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw APIError(.badRequest, "the body is not valid JSON (\(error.message)); send UTF-8 JSON")
        }
    }

    static func checkDepth(_ bytes: [UInt8]) throws(APIError) {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth {
                    throw APIError(
                        .badRequest,
                        "the JSON is nested more than \(maxDepth) levels deep; no ingest format needs that many"
                    )
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }
}
