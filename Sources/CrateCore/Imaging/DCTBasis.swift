import Foundation

/// Cosine tables for the low-frequency part of an N-point DCT-II, built once and shared.
struct DCTBasis: Sendable {
    /// Points (N) and kept frequencies (K).
    let size: Int
    let kept: Int
    /// `kept × size` row-major: `table[u * size + x] = cos(π (2x + 1) u / 2N)`.
    let table: [Float]
    /// The same, transposed (`size × kept`): `transposed[x * kept + u]`.
    let transposed: [Float]

    static let n64k16 = DCTBasis(size: 64, kept: 16)
    static let n32k8 = DCTBasis(size: 32, kept: 8)

    init(size: Int, kept: Int) {
        self.size = size
        self.kept = kept
        var table = [Float](repeating: 0, count: size * kept)
        for u in 0..<kept {
            for x in 0..<size {
                table[u * size + x] = Float(cos(Double.pi * Double(2 * x + 1) * Double(u) / Double(2 * size)))
            }
        }
        self.table = table
        var transposed = [Float](repeating: 0, count: size * kept)
        for u in 0..<kept {
            for x in 0..<size { transposed[x * kept + u] = table[u * size + x] }
        }
        self.transposed = transposed
    }

    /// The K×K low-frequency coefficients of an N×N block (row-major, `[v * K + u]`, v vertical).
    /// Normalisation constants are left out: hashes compare coefficients with their median,
    /// and a per-frequency positive factor would only matter for DC, which is treated the same way.
    func transform(_ block: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Float>,
                   scratch: UnsafeMutableBufferPointer<Float>) {
        let n = size, k = kept
        transposed.withUnsafeBufferPointer { t in
            // Rows: scratch[y * k + u] = Σx block[y * n + x] · c[u * n + x], summed over x in
            // order for every u at once — the inner loop runs across u, so it vectorises.
            for y in 0..<n {
                let row = block.baseAddress! + y * n
                let acc = scratch.baseAddress! + y * k
                for u in 0..<k { acc[u] = 0 }
                for x in 0..<n {
                    let value = row[x]
                    let basis = t.baseAddress! + x * k
                    for u in 0..<k { acc[u] += value * basis[u] }
                }
            }
        }
        table.withUnsafeBufferPointer { c in
            // Columns: out[v * k + u] = Σy c[v * n + y] · scratch[y * k + u]
            for i in 0..<(k * k) { out[i] = 0 }
            for v in 0..<k {
                let basis = c.baseAddress! + v * n
                let dst = out.baseAddress! + v * k
                for y in 0..<n {
                    let weight = basis[y]
                    let src = scratch.baseAddress! + y * k
                    for u in 0..<k { dst[u] += weight * src[u] }
                }
            }
        }
    }
}

extension Double {
    /// `Int(self.rounded())` — halves away from zero — without the libm call that `rounded()`
    /// becomes on baseline x86-64 (no SSE4.1). Exact: subtracting the truncated part is exact
    /// for every value an image coordinate can take. Used in the per-pixel loops of tier 0.
    @inline(__always)
    var roundedInt: Int {
        let whole = Int(self)
        let fraction = self - Double(whole)
        if fraction >= 0.5 { return whole + 1 }
        if fraction <= -0.5 { return whole - 1 }
        return whole
    }
}
