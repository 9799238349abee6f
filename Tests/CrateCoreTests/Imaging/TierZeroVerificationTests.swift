import CrateCore
import Foundation
import Testing

/// Tier 0 with its verification (`LocalMatcher.shortlist` + `CoverVerifier` + `TierZeroRule`) on the
/// fixture photos and the hard cases of `fixtures/images/hard` (scripts/make-hard-fixtures): the
/// same artwork with another title, the same photograph on another sleeve, series covers in other
/// text or colours, overlapping covers. None of them may be answered; photos of crate covers keep
/// being found. Same rule as the scan pipeline and `crate-bench calibrate`.
@Suite("Tier 0 verification")
struct TierZeroVerificationTests {
    let preparer = ImagePreparer()

    struct Library {
        var table = CoverTable()
        var names: [Int64: String] = [:]
        var artwork: [Int64: RGBImage] = [:]
    }

    func library() throws -> Library {
        var library = Library()
        for (i, file) in try ImageFixtures.files(in: "covers").enumerated() {
            let prepared = try preparer.prepareArtwork(ImageFixtures.data("covers/\(file)"))
            library.table.append(StoredCover(albumID: Int64(i), hash: prepared.hash))
            library.names[Int64(i)] = String(file.dropLast(".jpg".count))
            library.artwork[Int64(i)] = try JPEGCodec.decode(prepared.large).0
        }
        return library
    }

    func decide(_ path: String, in library: Library) throws -> String? {
        let photo = try preparer.preparePhoto(ImageFixtures.data(path))
        let shortlist = LocalMatcher.shortlist.shortlist(photo.hashes, in: library.table)
        let chosen = try TierZeroRule.decide(shortlist) { hit in
            try CoverVerifier.standard.check(photo, against: library.artwork[hit.albumID]!, coverHash: library.table.hash(of: hit.albumID)!)
        }
        return chosen.map { library.names[$0.albumID]! }
    }

    func hardCases() throws -> [(file: String, expected: String?)] {
        let manifest = try String(decoding: ImageFixtures.data("hard/MANIFEST.tsv"), as: UTF8.self)
        return manifest.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields[2] == "-" ? nil : fields[2])
        }
    }

    /// Before the verification, tier 0 answered title-04, title-06 and series-14 with the crate
    /// cover they copy. Now no hard negative and no unknown cover is answered, and no photo gets
    /// a wrong album.
    @Test func noHardNegativeIsAnswered() async throws {
        let (falseAccepts, wrong, found, known) = try await BlockingWork.run { () -> ([String], [String], Int, Int) in
            let library = try self.library()
            var falseAccepts: [String] = [], wrong: [String] = []
            var found = 0, known = 0
            for (file, expected) in try self.hardCases() {
                let decision = try self.decide("hard/\(file)", in: library)
                if let expected {
                    known += 1
                    if decision == expected { found += 1 } else if decision != nil { wrong.append(file) }
                } else if decision != nil {
                    falseAccepts.append(file)
                }
            }
            for file in try ImageFixtures.files(in: "negatives") where try self.decide("negatives/\(file)", in: library) != nil {
                falseAccepts.append(file)
            }
            return (falseAccepts, wrong, found, known)
        }
        #expect(falseAccepts.isEmpty, "answered: \(falseAccepts)")
        #expect(wrong.isEmpty)
        #expect(known == 3)
        #expect(found >= 2)  // recall-03-corner (a quarter hidden) is not found yet.
    }

    /// Photos of crate covers: never a wrong album. The verification costs recall that the hash
    /// alone had (32 of 34 at the last calibration, as before, but two different ones): those go to the vision
    /// provider online. The floor here guards against losing more.
    @Test func photosOfCrateCoversAreFoundOrLeftAlone() async throws {
        let (found, wrong, total) = try await BlockingWork.run { () -> (Int, Int, Int) in
            let library = try self.library()
            var found = 0, wrong = 0
            let photos = try ImageFixtures.files(in: "photos")
            for file in photos {
                guard let decision = try self.decide("photos/\(file)", in: library) else { continue }
                if file.hasPrefix(decision + "-") { found += 1 } else { wrong += 1 }
            }
            return (found, wrong, photos.count)
        }
        #expect(total == 34)
        #expect(wrong == 0)
        #expect(found >= 32)
    }

    /// The two photos the hash alone missed (a brick texture at 92 bits, a starfield under a
    /// neighbour at 82 bits) are now found, because the verification lets the hash gate widen.
    @Test func theTwoKnownMissesAreFound() async throws {
        let decisions = try await BlockingWork.run { () -> [String?] in
            let library = try self.library()
            return try ["photos/cover-07-photo-1.jpg", "photos/cover-04-photo-1.jpg"].map { try self.decide($0, in: library) }
        }
        #expect(decisions == ["cover-07", "cover-04"])
    }

    /// Bad geometry never reaches OpenCV unchecked, and a cover compared with itself passes.
    @Test func degenerateInputsAreNotAlignedAndACoverMatchesItself() throws {
        let cover = try JPEGCodec.decode(ImageFixtures.data("covers/cover-06.jpg")).0
        let tiny = RGBImage(width: 8, height: 8, pixels: [UInt8](repeating: 128, count: 8 * 8 * 3))
        #expect(try CoverVerifier.standard.check(tiny, square: CropSquare(x: 0, y: 0, side: 1), against: cover).outcome == .notAligned)
        #expect(try CoverVerifier.standard.check(cover, square: CropSquare(x: 0, y: 0, side: 0), against: cover).outcome == .notAligned)
        #expect(try CoverVerifier.standard.check(cover, square: CropSquare(x: .nan, y: 0, side: 1), against: cover).outcome == .notAligned)
        let same = try CoverVerifier.standard.check(cover, square: CropSquare(x: 0, y: 0, side: 1), against: cover)
        #expect(same.accepted)
        #expect(same.agreement > 0.95)
    }
}
