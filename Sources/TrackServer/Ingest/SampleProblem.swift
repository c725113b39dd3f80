import BackgroundCore

/// Why one sample was refused; the message names the sample and the field.
///
/// The server's one per-sample error. A broken sample rule (``SampleRuleSet``, the phone's
/// rules too) carries its ``rule`` code; a problem of the request's shape (a missing field, a
/// string where a number belongs) has none.
struct SampleProblem: Error, Hashable, CustomStringConvertible {
    var message: String
    /// The sample rule broken, or `nil` for a problem of shape.
    var rule: SampleRuleViolation.Code? = nil
    var description: String { message }

    init(message: String) {
        self.message = message
    }

    /// `sample 3: field "lat" latitude 91.2 is outside -90…90`.
    init(label: String, _ violation: SampleRuleViolation) {
        self.message = "\(label): field \"\(violation.field)\" \(violation.message)"
        self.rule = violation.code
    }
}

/// Reads typed fields out of one JSON object, with messages like
/// `sample 3: field "lat" must be a number, got string`.
struct FieldReader {
    var object: [String: JSONValue]
    /// "sample 3", "location 0", … — prefixes every message.
    var label: String

    init(_ value: JSONValue, label: String) throws(SampleProblem) {
        guard case .object(let members) = value else {
            throw SampleProblem(message: "\(label) must be a JSON object, got \(value.typeName)")
        }
        self.object = members
        self.label = label
    }

    init(members: [String: JSONValue], label: String) {
        self.object = members
        self.label = label
    }

    func problem(_ field: String, _ text: String) -> SampleProblem {
        SampleProblem(message: "\(label): field \"\(field)\" \(text)")
    }

    func number(_ field: String) throws(SampleProblem) -> Double? {
        switch object[field] {
        case nil, .null: return nil
        case .number(let value):
            guard value.isFinite else { throw problem(field, "must be a finite number") }
            return value
        case .some(let other): throw problem(field, "must be a number, got \(other.typeName)")
        }
    }

    func requiredNumber(_ field: String) throws(SampleProblem) -> Double {
        guard let value = try number(field) else { throw problem(field, "is required and missing") }
        return value
    }

    func string(_ field: String) throws(SampleProblem) -> String? {
        switch object[field] {
        case nil, .null: return nil
        case .string(let value): return value
        case .some(let other): throw problem(field, "must be a string, got \(other.typeName)")
        }
    }

    func bool(_ field: String) throws(SampleProblem) -> Bool? {
        switch object[field] {
        case nil, .null: return nil
        case .bool(let value): return value
        case .some(let other): throw problem(field, "must be true or false, got \(other.typeName)")
        }
    }

    func child(_ field: String) throws(SampleProblem) -> FieldReader? {
        switch object[field] {
        case nil, .null: return nil
        case .object(let members): return FieldReader(members: members, label: "\(label).\(field)")
        case .some(let other): throw problem(field, "must be an object, got \(other.typeName)")
        }
    }
}
