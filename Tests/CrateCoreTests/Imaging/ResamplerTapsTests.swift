import Foundation
import Testing
@testable import CrateCore

/// The resize's horizontal pass has an unrolled loop for the usual photo case (three channels,
/// four taps); it must give exactly what the plain filter gives.
@Suite("Resampler taps")
struct ResamplerTapsTests {
    /// Straight from the kernels: horizontal then vertical, the same fixed-point rounding.
    static func reference(_ image: RGBImage, crop: (x: Double, y: Double, width: Double, height: Double),
                          width: Int, height: Int) -> [UInt8] {
        let kx = Resampler.Kernel(start: crop.x, size: crop.width, limit: image.width, output: width)
        let ky = Resampler.Kernel(start: crop.y, size: crop.height, limit: image.height, output: height)
        var temp = [UInt8](repeating: 0, count: width * image.height * 3)
        for y in 0..<image.height {
            for x in 0..<width {
                for c in 0..<3 {
                    var acc: Int32 = 0
                    for t in 0..<kx.taps {
                        acc += Int32(image.pixels[(y * image.width + kx.starts[x] + t) * 3 + c]) * kx.weights[x * kx.taps + t]
                    }
                    temp[(y * width + x) * 3 + c] = Resampler.clamp(acc)
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for i in 0..<(width * 3) {
                var acc: Int32 = 0
                for t in 0..<ky.taps {
                    acc += Int32(temp[(ky.starts[y] + t) * width * 3 + i]) * ky.weights[y * ky.taps + t]
                }
                out[y * width * 3 + i] = Resampler.clamp(acc)
            }
        }
        return out
    }

    @Test(arguments: [(150, 103), (150, 60), (97, 97), (150, 200)])
    func unrolledAndPlainFiltersAgree(source: Int, output: Int) {
        var generator = SplitMix(seed: UInt64(source * 1000 + output))
        let w = source + 31, h = source + 7
        let pixels = (0..<(w * h * 3)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let image = RGBImage(width: w, height: h, pixels: pixels)
        let crop = (x: 12.4, y: 3.7, width: Double(source), height: Double(source))
        let kernel = Resampler.Kernel(start: crop.x, size: crop.width, limit: w, output: output)
        if source == 150 && output == 103 { #expect(kernel.taps == 4) }  // The unrolled case is exercised.
        let ours = Resampler.resize(image, crop: crop, width: output, height: output)
        #expect(ours.pixels == Self.reference(image, crop: crop, width: output, height: output))
    }
}

/// A small deterministic generator for test pixels.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
