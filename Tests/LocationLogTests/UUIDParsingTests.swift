import BackgroundCore
import Foundation
import LocationLogTesting
import Testing

@testable import LocationLog

/// `UUID(parsing:)` against Foundation's `UUID(uuidString:)` (what it stands in for): the same
/// UUID or the same refusal, for canonical ids in every case and for seeded mutations of them.
@Suite("UUID(parsing:) agrees with UUID(uuidString:)")
struct UUIDParsingTests {
    @Test(arguments: [
        "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01", "0B9C3A1E-4F59-4D7E-8A51-6F7A0A3C9E01",
        "0b9C3a1E-4f59-4D7e-8a51-6F7a0a3c9E01",
        "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "", "0", "not a uuid",
        "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e0", "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e011",
        "0b9c3a1e4f594d7e8a516f7a0a3c9e01",
        "0b9c3a1e_4f59-4d7e-8a51-6f7a0a3c9e01", "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9eg1",
        " b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01",
        "+b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01", "0x9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01",
        "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9é",
        "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e\u{0}1", "{0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01}",
    ])
    func knownIDs(_ text: String) {
        #expect(UUID(parsing: text) == UUID(uuidString: text))
    }

    @Test func seededIDsAndMutationsAgree() {
        let alphabet = Array("0123456789abcdefABCDEFgxG- +-{}\u{0}é".unicodeScalars)
        var parsed = 0
        for seed in UInt64(1)...20_000 {
            var random = SeededRandom(seed: seed)
            let uuid = UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { $0.load(as: uuid_t.self) })
            var scalars = Array(
                (Bool.random(using: &random) ? uuid.uuidString : uuid.uuidString.lowercased()).unicodeScalars)
            if seed % 4 != 0 {
                SeededMutation.mutate(&scalars, alphabet: alphabet, edits: 1...2, using: &random)
            }
            let text = String(String.UnicodeScalarView(scalars))
            let ours = UUID(parsing: text)
            if ours != nil { parsed += 1 }
            guard ours == UUID(uuidString: text) else {
                Issue.record(
                    "seed \(seed): \(text.debugDescription) read \(ours.debugDescription), Foundation \(UUID(uuidString: text).debugDescription)"
                )
                return
            }
        }
        #expect(parsed > 5_000)
    }
}
