import Foundation
import HTTPTypes

/// What a client says about the file it posts to `/imports`: its own id for the import
/// (`Import-Id`), which names the job's row, and the file's SHA-256 (`Repr-Digest`, RFC 9530),
/// which the body is checked against before the job is marked finished and which a resume must
/// repeat.
struct ImportIdentity: Equatable {
    /// 1-128 characters of `A-Z a-z 0-9 . _ : -`.
    var id: String?
    /// The 32 bytes of the declared SHA-256.
    var digest: [UInt8]?

    static let maxIDLength = 128

    init(id: String? = nil, digest: [UInt8]? = nil) {
        self.id = id
        self.digest = digest
    }

    /// Reads both headers.
    /// - Throws: ``APIError`` (400) naming the header, what is wrong and what to send.
    init(_ headers: HTTPFields) throws(APIError) {
        if let id = headers[.importID] {
            try self.init(id: Self.checkedID(id), digest: nil)
        } else {
            self.init()
        }
        if let field = headers[.reprDigest] { digest = try Self.sha256(reprDigest: field) }
    }

    /// The job row's name: the client's id, else its digest; `nil` when it sent neither (the
    /// route names the row by the body's length and head).
    var fingerprint: String? {
        if let id { return "id " + id }
        return digestText.map { "digest " + $0 }
    }

    /// `sha-256=:<base64>:`, as the header carries it and the row keeps it.
    var digestText: String? {
        digest.map { Self.text(sha256: $0) }
    }

    static func text(sha256 digest: [UInt8]) -> String {
        "sha-256=:" + Data(digest).base64EncodedString() + ":"
    }

    static func checkedID(_ id: String) throws(APIError) -> String {
        let allowed = id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                true
            default: false
            }
        }
        guard !id.isEmpty, id.utf8.count <= maxIDLength, allowed else {
            let shown = id.utf8.count > 40 ? "\(id.prefix(40))…\" (\(id.utf8.count) bytes)" : "\(id)\""
            throw APIError(
                .badRequest,
                "Import-Id \"\(shown) is not an import id: send 1 to \(maxIDLength) characters of A-Z a-z 0-9 . _ : - "
                    + "(the same one for every try of one file), or leave the header out")
        }
        return id
    }

    /// The SHA-256 a `Repr-Digest` field declares: a structured-field dictionary (RFC 8941) of
    /// algorithm names and byte sequences, parsed strictly.
    static func sha256(reprDigest field: String) throws(APIError) -> [UInt8] {
        let members: [(key: String, value: [UInt8])]
        do {
            members = try StructuredDictionary.byteSequences(field)
        } catch {
            let shown = field.utf8.count > 80 ? "\(field.prefix(80))…" : field
            throw APIError(
                .badRequest,
                "Repr-Digest \"\(shown)\" is malformed (\(error.reason)); send sha-256=:<base64 of the body's "
                    + "SHA-256>: as RFC 9530 describes, or leave the header out")
        }
        guard let sha256 = members.last(where: { $0.key == "sha-256" })?.value else {
            let names = members.map(\.key).joined(separator: ", ")
            throw APIError(
                .badRequest,
                "Repr-Digest names \(names), which this server does not check; send sha-256=:<base64 of the body's "
                    + "SHA-256>: (sha-256 is the one algorithm it checks)")
        }
        guard sha256.count == 32 else {
            throw APIError(
                .badRequest,
                "Repr-Digest sha-256 is \(sha256.count) bytes, a SHA-256 is 32: send the base64 of the body's SHA-256 "
                    + "between the colons")
        }
        return sha256
    }
}

/// A structured-field dictionary (RFC 8941 §4.2.2) whose members are all byte sequences, as
/// RFC 9530's digest fields are; anything else in it is an error. Parameters are parsed and
/// ignored (RFC 9530 defines none).
enum StructuredDictionary {
    struct Malformed: Error {
        var reason: String
    }

    static func byteSequences(_ field: String) throws(Malformed) -> [(key: String, value: [UInt8])] {
        var input = Array(field.utf8)[...]
        func skip(_ characters: Set<UInt8>) {
            while let first = input.first, characters.contains(first) { input.removeFirst() }
        }
        let space: Set<UInt8> = [UInt8(ascii: " ")]
        let whitespace: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t")]
        var members: [(key: String, value: [UInt8])] = []
        skip(space)
        guard !input.isEmpty else { throw Malformed(reason: "it is empty") }
        while true {
            let key = try Self.key(&input)
            guard input.first == UInt8(ascii: "=") else {
                throw Malformed(reason: "\(key) has no value: a digest is written \(key)=:<base64>:")
            }
            input.removeFirst()
            let value = try Self.byteSequence(&input, key: key)
            // Parameters: `;name` or `;name=value`, skipped.
            while input.first == UInt8(ascii: ";") {
                input.removeFirst()
                skip(space)
                _ = try Self.key(&input)
                if input.first == UInt8(ascii: "=") {
                    input.removeFirst()
                    while let first = input.first, first != UInt8(ascii: ";"), first != UInt8(ascii: ","),
                        !whitespace.contains(first)
                    {
                        input.removeFirst()
                    }
                }
            }
            members.append((key, value))
            skip(whitespace)
            guard let next = input.first else { return members }
            guard next == UInt8(ascii: ",") else {
                throw Malformed(
                    reason: "expected a comma after \(key)'s value, found \"\(Character(Unicode.Scalar(next)))\"")
            }
            input.removeFirst()
            skip(whitespace)
            guard !input.isEmpty else { throw Malformed(reason: "it ends with a comma") }
        }
    }

    /// `lcalpha / "*"` then `lcalpha / DIGIT / "_" / "-" / "." / "*"`.
    private static func key(_ input: inout ArraySlice<UInt8>) throws(Malformed) -> String {
        func isLower(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        guard let first = input.first, isLower(first) || first == UInt8(ascii: "*") else {
            throw Malformed(reason: "a key must start with a lowercase letter (sha-256, not SHA-256)")
        }
        var key = [first]
        input.removeFirst()
        while let byte = input.first,
            isLower(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "*")].contains(byte)
        {
            key.append(byte)
            input.removeFirst()
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// `":" *base64 ":"`, padded base64 of the standard alphabet.
    private static func byteSequence(_ input: inout ArraySlice<UInt8>, key: String) throws(Malformed) -> [UInt8] {
        guard input.first == UInt8(ascii: ":") else {
            throw Malformed(reason: "\(key)'s value is not a byte sequence: write it between colons, \(key)=:<base64>:")
        }
        input.removeFirst()
        guard let end = input.firstIndex(of: UInt8(ascii: ":")) else {
            throw Malformed(reason: "\(key)'s byte sequence has no closing colon")
        }
        let text = input[..<end]
        input = input[(end + 1)...]
        let alphabet = text.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(byte)
        }
        guard alphabet, let bytes = Data(base64Encoded: Data(text)) else {
            throw Malformed(reason: "\(key)'s value is not padded base64 (A-Z a-z 0-9 + / and = at the end)")
        }
        return Array(bytes)
    }
}

extension HTTPField.Name {
    // Valid header names, so the initialiser cannot fail.
    static let importID = Self("Import-Id") ?? .contentType
    static let reprDigest = Self("Repr-Digest") ?? .contentType
}
