public import BackgroundCore

/// The mutation the seeded comparison tests share: `edits` random edits, each replacing, removing
/// or inserting one element drawn from `alphabet` at a random place.
public enum SeededMutation {
    public static func mutate<Element>(
        _ elements: inout [Element], alphabet: [Element], edits: ClosedRange<Int> = 1...3,
        using random: inout SeededRandom
    ) {
        for _ in 0..<Int.random(in: edits, using: &random) {
            let at = Int.random(in: 0...elements.count, using: &random)
            let element = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where at < elements.count: elements[at] = element
            case 1 where at < elements.count: elements.remove(at: at)
            default: elements.insert(element, at: at)
            }
        }
    }
}
