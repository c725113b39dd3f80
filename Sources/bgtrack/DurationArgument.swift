/// Durations on the command line (`--duration 10m`, `--silent-after 35m`): a whole number of
/// ASCII digits and `s`, `m` or `h`, at most 8 characters.
enum DurationArgument {
    /// The seconds `text` names, if it is such a duration and within `range`.
    static func seconds(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600]
        guard text.count <= 8, let unit = text.last.flatMap({ units[$0] }),
            text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(text.dropLast())
        else { return nil }
        // Eight characters hold at most 9,999,999 h: no overflow.
        let seconds = value * unit
        return range.contains(seconds) ? seconds : nil
    }
}
