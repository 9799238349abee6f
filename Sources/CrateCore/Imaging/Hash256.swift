/// A 256-bit perceptual hash (the 16×16 low-frequency DCT block, one bit per coefficient).
public struct Hash256: Equatable, Hashable, Sendable {
    public let words: (UInt64, UInt64, UInt64, UInt64)

    public init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        words = (w0, w1, w2, w3)
    }

    /// 32 bytes, little-endian words (the `cover_hash.dct256` blob).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3] {
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(i)))) }
        }
        return out
    }

    /// Reads 32 bytes written by `bytes`; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        var w = [UInt64](repeating: 0, count: 4)
        for i in 0..<32 { w[i / 8] |= UInt64(bytes[i]) << (8 * UInt64(i % 8)) }
        self.init(w[0], w[1], w[2], w[3])
    }

    /// Number of differing bits (0…256).
    @inline(__always)
    public func distance(to other: Hash256) -> Int {
        (words.0 ^ other.words.0).nonzeroBitCount + (words.1 ^ other.words.1).nonzeroBitCount
            + (words.2 ^ other.words.2).nonzeroBitCount + (words.3 ^ other.words.3).nonzeroBitCount
    }

    public static func == (lhs: Hash256, rhs: Hash256) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}

/// Hashes of one album's cover artwork, as stored in `cover_hash`.
public struct CoverHash: Equatable, Sendable {
    /// 64-bit DCT pHash (8×8 low frequencies of a 32×32 DCT).
    public let pHash: UInt64
    /// 64-bit difference hash (9×8 grey, left-to-right gradients).
    public let dHash: UInt64
    /// 256-bit DCT hash used for matching photos (see `LocalMatcher`).
    public let dct256: Hash256

    public init(pHash: UInt64, dHash: UInt64, dct256: Hash256) {
        self.pHash = pHash
        self.dHash = dHash
        self.dct256 = dct256
    }
}
