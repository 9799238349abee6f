import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("PNG artwork")
struct PNGArtworkTests {
    /// 300 × 300 RGBA, four coloured quadrants, a transparent 10 × 10 corner.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAYAAAB5fY51AAAEh0lEQVR42u3UMRWAQAwFwSj5NSIQi5wowcZh4YoU8JhiJOxWJ7Vpwa6kYVwZFoaFYWFYYFgYFoZlWBgWhoVhgWFhWBiWYWFYGBaGBYaFYfGfYQkMw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCcWFYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGhWGJC8PCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsDEtcGBaGhWGBYWFYGBYYFoaFYYFhYVgYFhgWhoVhgWFhWBgWGBaGhWGBYWFYGBYYFoaFYYFhYVgYFhgWhoVhgWFhWBgWGBaGhWGBYWFYGBYYFoaFYYFhYVgYFhgWhoVhgWFhWBgWGBaGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWHxxWrnPBtLsPGGdYGBaGhWGBYWFYGBYYFoaFYYFhYVgYFhgWhoVhgWFhWBgWGBaGhWGBYWFYGBYYFoaFYYFhYVgYFhgWhoVhgWFhWBgWGBaGhWGBYWFYGBYYFoaFYYFhYVgYFhgWhoVhgWFhWBgWGBaGhWFhWOLCsDAsDAsMC8PCsMCwMCwMCwwLw8KwwLAwLAwLDAvDwrDAsDAsDAsMC8PCsMCwMCwMCwwLw8KwwLAwLAwLDAvDwrDAsDAsDAsMC8PCsMCwMCwMCwwLw8KwwLAwLAwLDAvDwrDAsDAsDAvDEheGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWGBYGBaGBYaFYWFYYFgYFoYFhoVhYVhgWBgWhgWGhWFhWBiWuDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLDAsDAvDAsPCsDAsMCwMC8MCw8KwMCwwLAwLwwLDwrAwLBAXhoVhYVgCw7AwLAwLDAvDwrDAsDAsDAsMC8PCsMCwMCwMCwwLw8KwwLAwLAwLDAvDwrDAsDAsDAsMC8PCsMCwMCwMCwwLw8KwwLAwLAwLDAvDwrDAsDAsDAsMC8PCsMCwMCwMCwwLw8KwQFwYFoaFYYFhYVgYFhgWhoVhgWHxYg+rJLKeDUb+4QAAAABJRU5ErkJggg==")!

    /// Bug: PNG artwork from the Cover Art Archive was refused with "Use a JPEG photo" (advice
    /// for the user's own photos), and the album kept no cover. Artwork PNGs are now decoded
    /// (libpng; transparency on white) and prepared like JPEG artwork.
    @Test("A PNG cover is decoded and prepared like a JPEG one")
    func aPNGCoverIsPrepared() throws {
        let image = try PNGCodec.decode(Self.png)
        #expect(image.width == 300 && image.height == 300)
        #expect(Array(image.pixels[0..<3]) == [255, 255, 255], "transparent on white")
        let red = (20 * 300 + 20) * 3
        #expect(Array(image.pixels[red..<red + 3]) == [200, 30, 30])
        let prepared = try ImagePreparer().prepareArtwork(Self.png)
        #expect(ImageFormat.sniff(prepared.large) == .jpeg)
        #expect(ImageFormat.sniff(prepared.thumbnail) == .jpeg)
        // The live Cover Art Archive client's check lets it through; a photo's check does not.
        #expect(throws: Never.self) { try ImagePreparer.validateArtwork(Self.png) }
        #expect(throws: ImageError.unsupportedFormat("PNG")) { try ImagePreparer.validate(Self.png) }
    }

    @Test("A damaged PNG is a clear error, never a crash")
    func aDamagedPNGIsAnError() {
        var broken = Self.png
        broken.replaceSubrange(60..<200, with: Data(repeating: 0x41, count: 140))
        #expect(throws: ImageError.self) { try PNGCodec.decode(broken) }
        #expect(throws: ImageError.self) { try PNGCodec.decode(Self.png.prefix(40)) }
    }

    @Test("A scan whose Cover Art Archive image is a PNG gets its artwork")
    func aScanKeepsPNGArtwork() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let id = MusicBrainzFixtures.rumoursReleaseID
        h.server.route("/storage/\(id)/front-500.jpg", responses: [.data(Self.png)])
        let result = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        #expect(result.entry.album.artworkStatus == .available)
    }
}
