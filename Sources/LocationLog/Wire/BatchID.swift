public import Foundation

extension BatchRequest {
    /// A batch id derived from the sample ids it carries (order-independent): re-sending the
    /// same samples after a lost answer sends the same batch id, so the server can recognise the
    /// retry as a whole, not only sample by sample.
    ///
    /// 128-bit FNV-1a over the sorted ids, formatted as an RFC 9562 version-8 (custom) UUID.
    public static func batchID(for sampleIDs: some Sequence<UUID>) -> UUID {
        var hash = FNV1a128()
        // Every id is 36 characters, so plain concatenation cannot be split two ways.
        for id in sampleIDs.map(\.wireString).sorted() { hash.add(id.utf8) }
        var bytes = hash.bytes
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

/// FNV-1a with a 128-bit state (offset basis and prime from the FNV specification).
struct FNV1a128 {
    private var high: UInt64 = 0x6C62_272E_07BB_0142
    private var low: UInt64 = 0x62B8_2175_6295_C58D

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            low ^= UInt64(byte)
            // Multiply the 128-bit state by the FNV prime 2^88 + 0x13B.
            let (productHigh, productLow) = low.multipliedFullWidth(by: 0x13B)
            let shifted = low << 24  // low × 2^88 lands in the high word shifted by 24
            high = high &* 0x13B &+ productHigh &+ shifted
            low = productLow
        }
    }

    var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }
}
