import CrateCore
import Foundation
import Testing

@Suite("EXIF orientation")
struct OrientationTests {
    let preparer = ImagePreparer()

    /// Fixture photos with orientations 3, 6 and 8 (MANIFEST.tsv), stored 2016×1512.
    @Test(arguments: [
        ("photos/cover-02-photo-1.jpg", 3),
        ("photos/cover-01-photo-0.jpg", 6),
        ("photos/cover-00-photo-0.jpg", 8),
        ("photos/cover-01-photo-1.jpg", 1),
    ])
    func uprightMatchesReference(file: String, orientation: Int) throws {
        let data = try ImageFixtures.data(file)
        let header = try JPEGCodec.probe(data)
        #expect(header.orientation.rawValue == orientation)
        let upright = try preparer.decodeUpright(data, minShortSide: 378)
        let swaps = orientation >= 5
        #expect(upright.width == (swaps ? 378 : 504) && upright.height == (swaps ? 504 : 378))
        // Compared with ImageMagick's -auto-orient at a small size, so a wrong rotation shows up.
        let w = upright.width / 4, h = upright.height / 4
        let ours = Resampler.resize(upright, width: w, height: h)
        let reference = try referencePixels(file, width: w, height: h, autoOrient: true)
        let diff = meanAbsoluteDifference(ours, reference)
        #expect(diff < 8, "\(file): mean difference \(diff)")
    }

    /// What tier 0's verification aligns in: the whole upright frame of these 4:3 photos at the
    /// vision square's scale, whatever their orientation, with the vision JPEG its middle square.
    @Test(arguments: ["photos/cover-02-photo-1.jpg", "photos/cover-01-photo-0.jpg", "photos/cover-00-photo-0.jpg",
                      "photos/cover-01-photo-1.jpg"])
    func surroundIsTheWholeUprightFrame(file: String) throws {
        let photo = try preparer.preparePhoto(ImageFixtures.data(file))
        let surround = photo.surround, side = photo.visionSide
        #expect(min(surround.width, surround.height) == side)
        #expect(abs(max(surround.width, surround.height) - side * 4 / 3) <= 1, "\(surround.width)×\(surround.height)")
        let w = surround.width / 8, h = surround.height / 8
        let reference = try referencePixels(file, width: w, height: h, autoOrient: true)
        let diff = meanAbsoluteDifference(Resampler.resize(surround, width: w, height: h), reference)
        #expect(diff < 8, "\(file): mean difference \(diff)")
        #expect(abs(photo.visionOrigin.x - (surround.width - side) / 2) <= 1)
        #expect(abs(photo.visionOrigin.y - (surround.height - side) / 2) <= 1)
        let vision = try JPEGCodec.decode(photo.visionJPEG).0
        #expect(meanAbsoluteDifference(vision, photo.visionImage) < 3)
    }

    @Test func allEightOrientationsOfATinyImage() {
        // 3×2 image with distinct pixels: a b c / d e f (grey values 1…6).
        let image = RGBImage(width: 3, height: 2, channels: 1, pixels: [1, 2, 3, 4, 5, 6])
        let expected: [ExifOrientation: [UInt8]] = [
            .up: [1, 2, 3, 4, 5, 6],
            .upMirrored: [3, 2, 1, 6, 5, 4],
            .down: [6, 5, 4, 3, 2, 1],
            .downMirrored: [4, 5, 6, 1, 2, 3],
            .leftMirrored: [1, 4, 2, 5, 3, 6],
            .right: [4, 1, 5, 2, 6, 3],
            .rightMirrored: [6, 3, 5, 2, 4, 1],
            .left: [3, 6, 2, 5, 1, 4],
        ]
        for orientation in ExifOrientation.allCases {
            let out = image.oriented(orientation)
            #expect(out.pixels == expected[orientation], "orientation \(orientation.rawValue)")
            #expect(out.width == (orientation.swapsDimensions ? 2 : 3))
        }
    }

    @Test func visionJPEGIsSquareAndUpright() throws {
        let photo = try preparer.preparePhoto(ImageFixtures.data("photos/cover-01-photo-0.jpg"))
        let header = try JPEGCodec.probe(photo.visionJPEG)
        #expect(header.width == 1024 && header.height == 1024)
        #expect(header.orientation == .up)
    }

    @Test func twelveMegapixelDecodesWithDCTScaling() throws {
        let data = try ImageFixtures.data("photos/cover-00-12mp.jpg")
        let header = try JPEGCodec.probe(data, minShortSide: 1024)
        #expect(header.scaleNumerator < 8)
        #expect(min(header.scaledWidth, header.scaledHeight) >= 1024)
        let photo = try preparer.preparePhoto(data)
        #expect(photo.visionSide == 1024)
    }

    @Test func cropRectangleIsHonoured() throws {
        let data = try ImageFixtures.data("photos/cover-01-photo-1.jpg")
        let photo = try preparer.preparePhoto(data, crop: NormalizedRect(x: 0.1, y: 0.1, width: 0.3, height: 0.5))
        // 0.3 × 2016 = 605 px wide: the square is 605 px, so no upscaling to 1024.
        #expect(photo.visionSide == 605)
    }
}
