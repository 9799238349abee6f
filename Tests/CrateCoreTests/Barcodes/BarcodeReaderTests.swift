import CrateCore
import Foundation
import Testing

/// `BarcodeReader` through libCrateBarcode.so (ZBar): photos made by scripts/make-barcode-photos
/// (Tests/Fixtures/barcodes, with manifest.json saying what is in each), drawn barcodes, and every
/// way of failing a typed error.
@Suite("Barcodes read from photos")
struct BarcodeReaderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/barcodes")

    struct Photo: Decodable {
        struct Truth: Decodable { let symbology: String; let digits: String }
        let file: String
        let `class`: String
        let barcodes: [Truth]
        let covered: [Truth]
    }

    static func manifest() throws -> [Photo] {
        try JSONDecoder().decode([Photo].self, from: Data(contentsOf: fixtures.appendingPathComponent("manifest.json")))
    }

    static func photo(_ kind: String) throws -> (Photo, RGBImage) {
        let photo = try #require(try manifest().first { $0.class == kind })
        return (photo, try BarcodeReader.decodePhoto(at: fixtures.appendingPathComponent(photo.file)))
    }

    @Test("An EAN-13 (or whatever the photo holds) and a UPC-A are read with the right digits and symbology",
          arguments: ["clean", "upca"])
    func readsOne(kind: String) throws {
        let (photo, image) = try Self.photo(kind)
        let found = try BarcodeReader().read(image)
        let truth = try #require(photo.barcodes.first)
        #expect(found.map(\.digits) == [truth.digits], "\(photo.file)")
        #expect(found.first?.symbology.rawValue == truth.symbology)
    }

    @Test("Every fixture photo: every barcode found, no wrong digits")
    func everyFixture() throws {
        for photo in try Self.manifest() {
            let image = try BarcodeReader.decodePhoto(at: Self.fixtures.appendingPathComponent(photo.file))
            let read = Set(try BarcodeReader().read(image).map(\.digits))
            let expected = Set(photo.barcodes.map(\.digits))
            #expect(expected.isSubset(of: read), "\(photo.file): missed \(expected.subtracting(read))")
            #expect(read.isSubset(of: expected.union(photo.covered.map(\.digits))), "\(photo.file): wrong \(read.subtracting(expected))")
        }
    }

    @Test("Several barcodes in frame: each one is read")
    func readsSeveral() throws {
        let (photo, image) = try Self.photo("multi")
        #expect(photo.barcodes.count >= 2)
        let readings = try BarcodeReader().readings(image)
        #expect(Set(readings.compactMap(\.barcode?.digits)) == Set(photo.barcodes.map(\.digits)), "\(photo.file)")
        for reading in readings {
            #expect(reading.box.width > 0 && reading.box.height > 0)
            #expect(reading.box.x + reading.box.width <= image.width + 2 && reading.box.y + reading.box.height <= image.height + 2)
        }
    }

    @Test("A damaged barcode gives nothing, or its own digits: never wrong ones")
    func damaged() throws {
        let (photo, image) = try Self.photo("damaged")
        let found = try BarcodeReader().read(image)
        #expect(Set(found.map(\.digits)).isSubset(of: Set(photo.covered.map(\.digits))), "\(photo.file): \(found)")
    }

    @Test("A photo without a barcode: nothing found, no error")
    func none() throws {
        let (_, image) = try Self.photo("none")
        #expect(try BarcodeReader().read(image).isEmpty)
        // A plain grey picture and a one-pixel one too.
        #expect(try BarcodeReader().read(RGBImage(width: 64, height: 48, channels: 1, pixels: [UInt8](repeating: 128, count: 64 * 48))).isEmpty)
        #expect(try BarcodeReader().read(RGBImage(width: 1, height: 1, pixels: [0, 0, 0])).isEmpty)
    }

    @Test("A drawn EAN-13 is read; a book's (ISBN) is refused as a book's")
    func drawn() throws {
        #expect(try BarcodeReader().read(Self.draw("5099902943527")).map(\.digits) == ["5099902943527"])
        #expect(throws: BarcodeError.isbn("9780306406157")) { try BarcodeReader().read(Self.draw("9780306406157")) }
        let readings = try BarcodeReader().readings(Self.draw("9780306406157"))
        #expect(readings.map(\.digits) == ["9780306406157"] && readings.first?.barcode == nil)
    }

    @Test("A corrupt or missing photo file: a clear image error")
    func corruptPhoto() throws {
        let temp = try TemporaryDirectory()
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(try Self.manifest()[0].file))
        let truncated = temp.url.appendingPathComponent("truncated.jpg")
        try data.prefix(600).write(to: truncated)
        #expect(throws: ImageError.self) { try BarcodeReader().read(photoAt: truncated) }
        let text = temp.url.appendingPathComponent("notes.jpg")
        try Data("not a photo".utf8).write(to: text)
        #expect(throws: ImageError.notAnImage) { try BarcodeReader().read(photoAt: text) }
        #expect(throws: ImageError.self) { try BarcodeReader().read(photoAt: temp.url.appendingPathComponent("missing.jpg")) }
    }

    @Test("Without the plugin: a typed error naming it, never a crash")
    func missingPlugin() throws {
        let temp = try TemporaryDirectory()
        let reader = BarcodeReader(pluginDirectories: [temp.url.path])
        let problem = BarcodeError.unavailable(.notInstalled(.barcode, searched: [temp.url.path]))
        #expect(throws: problem) { try reader.read(Self.draw("5099902943527")) }
        #expect(problem.message.contains("libCrateBarcode.so") && problem.message.contains("Typed barcodes still work"))
        let cannotLoad = BarcodeError.unavailable(.cannotLoad(.barcode, path: "/opt/crate/lib/crate/libCrateBarcode.so"))
        #expect(cannotLoad.message.contains("install libzbar0"))
        #expect(BarcodeReader.unavailable == nil)
    }

    // MARK: - Drawing

    static let left = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
    static let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]

    /// An EAN-13 drawn 3 px a module, bars 120 px tall, on white with quiet zones.
    static func draw(_ digits: String) -> RGBImage {
        let d = digits.map { Int(String($0))! }
        let right = left.map { String($0.map { $0 == "0" ? "1" : "0" }) }
        let even = right.map { String($0.reversed()) }
        var bars = "101"
        for (i, p) in parity[d[0]].enumerated() { bars += p == "L" ? left[d[i + 1]] : even[d[i + 1]] }
        bars += "01010"
        for i in 7..<13 { bars += right[d[i]] }
        bars += "101"
        let module = 3, quiet = 15, width = (bars.count + 2 * quiet) * module, height = 160
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (i, bar) in bars.enumerated() where bar == "1" {
            for y in 20..<140 {
                for x in 0..<module { pixels[y * width + (quiet + i) * module + x] = 0 }
            }
        }
        return RGBImage(width: width, height: height, channels: 1, pixels: pixels)
    }
}
