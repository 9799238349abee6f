import Foundation

/// What the player played, sample by sample: a `CRATE_AUDIO_SINK` description that writes the
/// pipeline's output (after playbin's audio filter) to a file as 32-bit float, 48 kHz mono, as
/// fast as it decodes; then levels and seams measured on it.
public struct PCMCapture: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The sink description for the player.
    public var sinkDescription: String {
        "audioconvert ! audio/x-raw,format=F32LE,channels=1,rate=\(ToneAlbum.rate) ! filesink sync=false location=\(path)"
    }

    /// The captured samples.
    public func samples() throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// RMS level in dBFS of `samples[range]`.
    public static func rmsDb(_ samples: [Float], _ range: Range<Int>? = nil) -> Double {
        let range = range ?? samples.indices
        guard !range.isEmpty else { return -.infinity }
        var sum = 0.0
        for i in range { sum += Double(samples[i]) * Double(samples[i]) }
        return 10 * log10(max(sum / Double(range.count), 1e-30))
    }

    /// The largest absolute sample.
    public static func peak(_ samples: [Float]) -> Float { samples.reduce(0) { max($0, abs($1)) } }

    /// Where `original[at..<at+window]` sits in `played`: the lag L (played[at+L+i] ≈
    /// original[at+i]) with the highest normalised correlation, searched in `around ± radius`.
    public static func lag(played: [Float], original: [Float], at position: Int, window: Int = 2_048, around: Int,
                           radius: Int) -> (lag: Int, correlation: Double) {
        var best = (lag: around, correlation: -2.0)
        played.withUnsafeBufferPointer { p in
            original.withUnsafeBufferPointer { o in
                guard position >= 0, position + window <= o.count else { return }
                var energyO = 0.0
                for i in 0..<window { energyO += Double(o[position + i]) * Double(o[position + i]) }
                for lag in (around - radius)...(around + radius) {
                    let start = position + lag
                    guard start >= 0, start + window <= p.count else { continue }
                    var dot: Float = 0, energyP: Float = 0
                    for i in 0..<window {
                        let a = p[start + i]
                        dot += a * o[position + i]
                        energyP += a * a
                    }
                    let c = Double(dot) / max((Double(energyP) * energyO).squareRoot(), 1e-12)
                    if c > best.correlation { best = (lag, c) }
                }
            }
        }
        return best
    }

    /// A seam: how many samples the played stream gained (positive: a gap or extra samples) or
    /// lost (negative) across the boundary, and the worse of the two correlations.
    public struct Seam: Sendable {
        public let boundary: Int
        public let samples: Int
        public let correlation: Double
        public var milliseconds: Double { Double(samples) * 1_000 / Double(ToneAlbum.rate) }
    }

    /// The seams at each of `album`'s track boundaries: the lag just before (50 ms before the
    /// join) against the lag just after, and the lag at the album's start.
    public static func seams(played: [Float], album: ToneAlbum, maxShift: Int = 9_600) -> (start: Int, seams: [Seam]) {
        let window = 2_048, margin = ToneAlbum.rate / 20
        let coarseStart = lag(played: played, original: album.signal, at: margin, window: window / 2, around: 0, radius: maxShift)
        let start = lag(played: played, original: album.signal, at: margin, window: window, around: coarseStart.lag, radius: 8)
        var current = start.lag
        var seams: [Seam] = []
        let boundaries = album.boundaries
        for boundary in boundaries.dropFirst().dropLast() {
            // Inside a track the lag holds still: a narrow search before, a wide one after
            // (short window), then a narrow one with the full window.
            let before = lag(played: played, original: album.signal, at: boundary - margin - window, window: window, around: current, radius: 64)
            let coarse = lag(played: played, original: album.signal, at: boundary + margin, window: window / 2, around: before.lag, radius: maxShift)
            let after = lag(played: played, original: album.signal, at: boundary + margin, window: window, around: coarse.lag, radius: 8)
            seams.append(Seam(boundary: boundary, samples: after.lag - before.lag, correlation: min(before.correlation, after.correlation)))
            current = after.lag
        }
        return (start.lag, seams)
    }
}
