extension CleanupRules {
    /// A rule's limit as given on the command line: a number in `range`, or `off`.
    /// - Throws: ``CleanupRuleError`` saying what was wrong and what to write instead.
    public static func limit(_ text: String, option: String, range: ClosedRange<Double>) throws(CleanupRuleError)
        -> Double?
    {
        if text == "off" { return nil }
        guard text.utf8.count <= 16, let value = Double(text), value.isFinite, range.contains(value) else {
            throw CleanupRuleError(
                "--\(option) '\(text.prefix(20))' is not a number from \(Int(range.lowerBound)) to "
                    + "\(Int(range.upperBound)) (decimals allowed), or 'off' to turn the rule off")
        }
        return value
    }

    /// `on` or `off`.
    public static func switchValue(_ text: String, option: String) throws(CleanupRuleError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw CleanupRuleError("--\(option) '\(text.prefix(20))' must be on or off")
        }
    }
}

/// A clean-up rule given on the command line that is not one.
public struct CleanupRuleError: Error, CustomStringConvertible, Hashable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
