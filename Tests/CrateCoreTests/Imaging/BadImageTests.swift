import CrateCore
import Foundation
import Testing

/// RELIABILITY.md #13: every file in `bad-images/` gives a clear message or is handled correctly.
@Suite("Bad images")
struct BadImageTests {
    let preparer = ImagePreparer()

    func prepare(_ name: String) throws -> PreparedPhoto {
        try preparer.preparePhoto(ImageFixtures.data("bad-images/\(name)"))
    }

    func expectError(_ name: String, _ expected: (ImageError) -> Bool) {
        do {
            _ = try prepare(name)
            Issue.record("\(name) should have been rejected")
        } catch let error as ImageError {
            #expect(expected(error), "\(name): \(error)")
            #expect(!error.message.isEmpty)
        } catch {
            Issue.record("\(name): untyped error \(error)")
        }
    }

    @Test func zeroBytesIsEmptyFile() {
        expectError("zero-bytes.jpg") { $0 == .emptyFile }
    }

    @Test func textFileIsNotAnImage() {
        expectError("not-an-image.jpg") { $0 == .notAnImage && $0.message == "This file is not an image." }
    }

    @Test func randomBytesAreNotAnImage() {
        expectError("random-bytes.jpg") { $0 == .notAnImage }
    }

    @Test func truncatedIsDamaged() {
        expectError("truncated.jpg") { if case .damaged = $0 { return $0.message.contains("damaged") } else { return false } }
    }

    @Test func corruptScanDataIsDamaged() {
        expectError("corrupt-scan-data.jpg") { if case .damaged = $0 { return true } else { return false } }
    }

    @Test func pngIsUnsupported() {
        expectError("cover.png") { $0 == .unsupportedFormat("PNG") && $0.message.contains("(PNG)") }
    }

    @Test func gifIsUnsupported() {
        expectError("cover.gif") { $0 == .unsupportedFormat("GIF") && $0.message.contains("(GIF)") }
    }

    @Test func webpIsRecognisedByMagicBytes() {
        var bytes = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        bytes += [UInt8](repeating: 0, count: 32)
        #expect(throws: ImageError.unsupportedFormat("WebP")) { try ImagePreparer.validate(Data(bytes)) }
    }

    /// The name says PNG; the bytes say JPEG. Bytes win.
    @Test func realJPEGNamedPNGDecodes() throws {
        let photo = try prepare("real jpeg named .png")
        #expect(photo.visionSide == 500)
    }

    /// 65000×65000 must be refused from the header alone, before any pixel buffer exists. The
    /// error is the proof: decoding first would need a 17 GB buffer, so no clock is needed.
    @Test func bombIsRejectedFastFromTheHeader() throws {
        let data = try ImageFixtures.data("bad-images/bomb-65000x65000.jpg")
        #expect(throws: ImageError.tooLarge(width: 65000, height: 65000)) { try preparer.preparePhoto(data) }
        #expect(ImageError.tooLarge(width: 65000, height: 65000).message.hasPrefix("Image too large"))
    }

    @Test func cmykColoursAreSane() throws {
        let data = try ImageFixtures.data("bad-images/cmyk.jpg")
        let header = try JPEGCodec.probe(data)
        #expect(header.colorSpace == .cmyk || header.colorSpace == .ycck)
        let (image, _) = try JPEGCodec.decode(data)
        #expect(image.width == 500 && image.height == 500 && image.channels == 3)
        let reference = try referencePixels("bad-images/cmyk.jpg", size: 500)
        #expect(meanAbsoluteDifference(image, reference) < 20, "CMYK decode far from ImageMagick's (inverted?)")
    }

    @Test func progressiveDecodes() throws {
        let data = try ImageFixtures.data("bad-images/progressive.jpg")
        #expect(try JPEGCodec.probe(data).isProgressive)
        let photo = try preparer.preparePhoto(data)
        #expect(photo.visionSide == 500)
    }

    @Test func grayscaleDecodesToRGB() throws {
        let data = try ImageFixtures.data("bad-images/grayscale.jpg")
        #expect(try JPEGCodec.probe(data).colorSpace == .gray)
        let (image, _) = try JPEGCodec.decode(data)
        let p = image.pixel(x: 250, y: 250)
        #expect(p.r == p.g && p.g == p.b)
        _ = try preparer.preparePhoto(data)
    }

    @Test func onePixel() throws {
        let photo = try prepare("one-pixel.jpg")
        #expect(photo.visionSide == 1)
        #expect(try JPEGCodec.probe(photo.visionJPEG).width == 1)
    }

    @Test func banner3000x40() throws {
        let photo = try prepare("banner-3000x40.jpg")
        #expect(photo.visionSide == 40)
        let header = try JPEGCodec.probe(photo.visionJPEG)
        #expect(header.width == 40 && header.height == 40)
    }

    @Test func unreadableFileIsTyped() {
        #expect(throws: ImageError.self) { try preparer.preparePhoto(at: URL(fileURLWithPath: "/nonexistent/x.jpg")) }
    }
}
