import Foundation

/// Two contrasting accent colours from album artwork (docs/decisions/0002-accent-colours-from-artwork.md): the artwork is averaged down to
/// 10×10, pixels are quantised into 32-level buckets, and buckets are scored by
/// frequency × saturation³ × a brightness floor, so vivid colours beat greys, whites and near-blacks.
public struct ArtworkColors: Equatable, Sendable {
    public struct RGB: Equatable, Sendable {
        public let r: UInt8, g: UInt8, b: UInt8

        public init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }

        /// `#rrggbb`, for CSS.
        public var hex: String { String(format: "#%02x%02x%02x", r, g, b) }

        func distance(to other: RGB) -> Double {
            let dr = Double(r) - Double(other.r), dg = Double(g) - Double(other.g), db = Double(b) - Double(other.b)
            return (dr * dr + dg * dg + db * db).squareRoot()
        }

        /// Saturation and brightness (HSB), 0–1.
        var saturationBrightness: (Double, Double) {
            let maxC = Double(max(r, g, b)) / 255, minC = Double(min(r, g, b)) / 255
            return (maxC == 0 ? 0 : (maxC - minC) / maxC, maxC)
        }
    }

    public let primary: RGB
    public let secondary: RGB

    static let minimumDistance = 60.0

    /// Colours of `image` (any size; a 200 px thumbnail is plenty).
    public init(image: RGBImage) {
        var counts: [Int: (count: Int, color: RGB)] = [:]
        let grid = 10
        for gy in 0..<grid {
            for gx in 0..<grid {
                let color = Self.average(image, x0: gx * image.width / grid, x1: max(gx * image.width / grid + 1, (gx + 1) * image.width / grid),
                                         y0: gy * image.height / grid, y1: max(gy * image.height / grid + 1, (gy + 1) * image.height / grid))
                let bucket = RGB(r: color.r / 32 * 32 + 16, g: color.g / 32 * 32 + 16, b: color.b / 32 * 32 + 16)
                let key = Int(bucket.r) << 16 | Int(bucket.g) << 8 | Int(bucket.b)
                counts[key, default: (0, bucket)].count += 1
            }
        }
        let buckets = counts.values.map { ($0.count, $0.color) }
        let vivid = buckets.filter { let (s, v) = $0.1.saturationBrightness; return s >= 0.15 && v >= 0.12 }
        let ranked: [RGB]
        if vivid.isEmpty {
            ranked = buckets.sorted { $0.0 > $1.0 }.map(\.1)  // Monochrome artwork: plain frequency.
        } else {
            ranked = vivid.map { count, color -> (Double, RGB) in
                let (s, v) = color.saturationBrightness
                return (Double(count) * s * s * s * max(v, 0.3), color)
            }.sorted { $0.0 > $1.0 }.map(\.1)
        }
        let first = ranked.first ?? RGB(r: 128, g: 128, b: 128)
        primary = first
        secondary = ranked.dropFirst().first { $0.distance(to: first) >= Self.minimumDistance } ?? Self.shifted(first)
    }

    private static func average(_ image: RGBImage, x0: Int, x1: Int, y0: Int, y1: Int) -> RGB {
        var r = 0, g = 0, b = 0, n = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in y0..<min(y1, image.height) {
                for x in x0..<min(x1, image.width) {
                    let i = (y * image.width + x) * image.channels
                    r += Int(pixels[i]); g += Int(pixels[i + 1]); b += Int(pixels[i + 2]); n += 1
                }
            }
        }
        n = max(n, 1)
        return RGB(r: UInt8(r / n), g: UInt8(g / n), b: UInt8(b / n))
    }

    /// No distinct second colour: a brighter (or, for light colours, darker) shade of the first.
    private static func shifted(_ color: RGB) -> RGB {
        let (_, v) = color.saturationBrightness
        let factor = v > 0.6 ? 0.55 : 1.6
        func scale(_ c: UInt8) -> UInt8 { UInt8(min(255, max(0, Double(c) * factor + (factor > 1 ? 40 : 0)))) }
        return RGB(r: scale(color.r), g: scale(color.g), b: scale(color.b))
    }
}
