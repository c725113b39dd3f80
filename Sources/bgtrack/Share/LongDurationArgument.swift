/// Long durations on the command line (`--expires 7d`, `--retention 365d`): a whole number of
/// ASCII digits and `m`, `h`, `d` or `w`, at most 8 characters.
enum LongDurationArgument {
    /// The seconds `text` names, if it is such a duration and within `range`.
    static func seconds(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        let units: [Character: Int64] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard text.count <= 8, let unit = text.last.flatMap({ units[$0] }),
            text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(text.dropLast())
        else { return nil }
        // Seven digits of weeks are at most 6e12 s: no overflow.
        let seconds = value * unit
        return range.contains(seconds) ? seconds : nil
    }
}
