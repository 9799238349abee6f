/// Computes Crate's perceptual hashes. Reuses its scratch buffers, so keep one per thread.
final class PerceptualHasher {
    private var block = [Float](repeating: 0, count: 64 * 64)
    private var rotated = [Float](repeating: 0, count: 64 * 64)
    private var scratch = [Float](repeating: 0, count: 64 * 16)
    private var coefficients = [Float](repeating: 0, count: 16 * 16)
    private var variant = [Float](repeating: 0, count: 16 * 16)
    private var sorted = [Float](repeating: 0, count: 16 * 16)

    /// The 256-bit hashes of a square region for the 4 rotations (0°, 90°, 180°, 270°).
    func dct256Rotations(of integral: IntegralImage, x: Double, y: Double, side: Double,
                         orientation: ExifOrientation) -> [Hash256] {
        sampleOriented(integral, x: x, y: y, side: side, orientation: orientation)
        transformRotated()
        // Rotating the image by 90° transposes the DCT block and flips signs of odd frequencies,
        // so all four rotations come from one transform.
        return (0..<4).map { rotation in rotatedHash(rotation) }
    }

    /// The 256-bit hashes, 4 rotations, of a quadrilateral warped square (stored coordinates,
    /// corners clockwise from the stored top-left), re-ordered to display orientation.
    func dct256Rotations(of integral: IntegralImage, quad: Quad, orientation: ExifOrientation) -> [Hash256] {
        block.withUnsafeMutableBufferPointer { integral.sampleQuad(quad, n: 64, into: $0) }
        reorient(orientation)
        transformRotated()
        return (0..<4).map { rotation in rotatedHash(rotation) }
    }

    /// The 256-bit hash of a square region, upright only (cover artwork).
    func dct256(of integral: IntegralImage, x: Double, y: Double, side: Double) -> Hash256 {
        dct256Rotations(of: integral, x: x, y: y, side: side, orientation: .up)[0]
    }

    /// 64-bit pHash of a square region: 8×8 low frequencies of a 32×32 DCT, bits "above the median".
    func pHash64(of integral: IntegralImage, x: Double, y: Double, side: Double, orientation: ExifOrientation) -> UInt64 {
        let small = Self.sample(integral, x: x, y: y, side: side, n: 32, orientation: orientation)
        var tmp = [Float](repeating: 0, count: 32 * 8)
        var out = [Float](repeating: 0, count: 64)
        small.withUnsafeBufferPointer { s in
            tmp.withUnsafeMutableBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in DCTBasis.n32k8.transform(s, into: o, scratch: t) }
            }
        }
        let median = Self.median(out)
        var bits: UInt64 = 0
        for i in 0..<64 where out[i] > median { bits |= 1 << UInt64(i) }
        return bits
    }

    /// 64-bit dHash of a square region: a 9×8 grey copy, one bit per "right neighbour is brighter".
    func dHash64(of integral: IntegralImage, x: Double, y: Double, side: Double, orientation: ExifOrientation) -> UInt64 {
        let cells = Self.sample(integral, x: x, y: y, side: side, n: 9, orientation: orientation)
        var bits: UInt64 = 0
        for row in 0..<8 {
            for col in 0..<8 where cells[row * 9 + col + 1] > cells[row * 9 + col] {
                bits |= 1 << UInt64(row * 8 + col)
            }
        }
        return bits
    }

    /// An n×n grid of box averages over a stored-image square, re-ordered to display orientation.
    static func sample(_ integral: IntegralImage, x: Double, y: Double, side: Double, n: Int,
                       orientation: ExifOrientation) -> [Float] {
        var raw = [Float](repeating: 0, count: n * n)
        raw.withUnsafeMutableBufferPointer { integral.sampleSquare(x: x, y: y, side: side, n: n, into: $0) }
        if orientation == .up { return raw }
        let (base, dx, dy) = orientation.strides(width: n, height: n)
        var out = [Float](repeating: 0, count: n * n)
        for j in 0..<n {
            for i in 0..<n { out[j * n + i] = raw[base + i * dx + j * dy] }
        }
        return out
    }

    // MARK: - Private

    private func transformRotated() {
        rotated.withUnsafeBufferPointer { src in
            scratch.withUnsafeMutableBufferPointer { tmp in
                coefficients.withUnsafeMutableBufferPointer { out in
                    DCTBasis.n64k16.transform(src, into: out, scratch: tmp)
                }
            }
        }
    }

    private func sampleOriented(_ integral: IntegralImage, x: Double, y: Double, side: Double, orientation: ExifOrientation) {
        block.withUnsafeMutableBufferPointer { b in
            integral.sampleSquare(x: x, y: y, side: side, n: 64, into: b)
        }
        reorient(orientation)
    }

    /// `block` (stored orientation) into `rotated` (display orientation).
    private func reorient(_ orientation: ExifOrientation) {
        let (base, dx, dy) = orientation.strides(width: 64, height: 64)
        block.withUnsafeBufferPointer { src in
            rotated.withUnsafeMutableBufferPointer { dst in
                for j in 0..<64 {
                    var s = base + j * dy
                    for i in 0..<64 {
                        dst[j * 64 + i] = src[s]
                        s += dx
                    }
                }
            }
        }
    }

    /// Bits for the coefficient block rotated by `rotation` × 90°.
    private func rotatedHash(_ rotation: Int) -> Hash256 {
        let k = 16
        for v in 0..<k {
            for u in 0..<k {
                let value: Float
                switch rotation {
                case 0: value = coefficients[v * k + u]
                case 1: value = (v & 1 == 1 ? -1 : 1) * coefficients[u * k + v]   // transpose, flip across
                case 2: value = ((u + v) & 1 == 1 ? -1 : 1) * coefficients[v * k + u]  // both flips
                default: value = (u & 1 == 1 ? -1 : 1) * coefficients[u * k + v]
                }
                variant[v * k + u] = value
            }
        }
        let median = Self.median(variant, scratch: &sorted)
        var w: [UInt64] = [0, 0, 0, 0]
        for i in 0..<256 where variant[i] > median { w[i >> 6] |= 1 << UInt64(i & 63) }
        return Hash256(w[0], w[1], w[2], w[3])
    }

    private static func median(_ values: [Float]) -> Float {
        var scratch = values
        return median(values, scratch: &scratch)
    }

    /// The element a full sort would put at `count / 2`, found by quickselect (the hash of every
    /// crop and rotation needs one; sorting 256 values each time was a third of the crop search).
    private static func median(_ values: [Float], scratch: inout [Float]) -> Float {
        scratch = values
        return scratch.withUnsafeMutableBufferPointer { a in
            let k = a.count / 2
            var lo = 0, hi = a.count - 1
            while lo < hi {
                // Median of three as pivot; Hoare partition.
                let mid = (lo + hi) / 2
                if a[mid] < a[lo] { a.swapAt(mid, lo) }
                if a[hi] < a[lo] { a.swapAt(hi, lo) }
                if a[hi] < a[mid] { a.swapAt(hi, mid) }
                let pivot = a[mid]
                var i = lo, j = hi
                while i <= j {
                    while a[i] < pivot { i += 1 }
                    while pivot < a[j] { j -= 1 }
                    if i <= j {
                        a.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j { hi = j } else if k >= i { lo = i } else { break }
            }
            return a[k]
        }
    }
}
