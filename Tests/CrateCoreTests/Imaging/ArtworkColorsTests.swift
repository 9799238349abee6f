import CrateCore
import Foundation
import Testing

@Suite("Artwork colours")
struct ArtworkColorsTests {
    private func image(_ fill: (Int, Int) -> (UInt8, UInt8, UInt8), size: Int = 100) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<size { for x in 0..<size { let (r, g, b) = fill(x, y); pixels += [r, g, b] } }
        return RGBImage(width: size, height: size, pixels: pixels)
    }

    @Test func vividColoursBeatALargerGreyArea() {
        // 70 % grey, 20 % red, 10 % blue: red wins despite the grey being most frequent.
        let colors = ArtworkColors(image: image { x, _ in x < 70 ? (128, 128, 128) : (x < 90 ? (220, 30, 30) : (30, 40, 210)) })
        #expect(colors.primary.r > 180 && colors.primary.g < 80)
        #expect(colors.secondary.b > 150, "the second colour contrasts with the first")
    }

    @Test func monochromeArtworkFallsBackToFrequencyAndDerivesASecondShade() {
        let colors = ArtworkColors(image: image { _, _ in (200, 200, 200) })
        #expect(colors.primary.r == colors.primary.g)
        #expect(colors.secondary != colors.primary)
        #expect(colors.primary.hex.hasPrefix("#") && colors.primary.hex.count == 7)
    }

    @Test func realCoverGivesTwoDistinctColours() throws {
        let artwork = try ImagePreparer().prepareArtwork(ImageFixtures.data("covers/cover-00.jpg"))
        let colors = ArtworkColors(image: try ImagePreparer().decodeUpright(artwork.thumbnail))
        #expect(colors.primary != colors.secondary)
    }
}
