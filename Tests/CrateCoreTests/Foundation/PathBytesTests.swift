import Testing
@testable import CrateCore

@Suite("PathBytes")
struct PathBytesTests {
    @Test func bytesThatAreNotUTF8SurviveTheRoundTrip() {
        let raw: [UInt8] = Array("/photos/caf".utf8) + [0xFF, 0xC3] + Array(".jpg".utf8) + [0xE9]
        let path = PathBytes.string(from: raw)
        #expect(PathBytes.hasRawBytes(path))
        #expect(PathBytes.bytes(of: path) == raw)
    }

    @Test func validUTF8IsLeftAlone() {
        let path = "/photos/café — 東京.jpg"
        #expect(PathBytes.string(from: Array(path.utf8)) == path)
        #expect(!PathBytes.hasRawBytes(path))
        #expect(PathBytes.bytes(of: path) == Array(path.utf8))
    }
}
