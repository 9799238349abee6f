import CrateCore
import Foundation
import Testing

/// Tier 0 on `fixtures/images/classes` (scripts/make-tier0-classes, one photo per degradation
/// class and per kind of hard negative, plus three turned covers the hash found only by their
/// outline, one of them on a striped table, two covers cut by the frame found only by the squares
/// run out of the frame (`EdgeSearch`: a grey cover cut at the top whose sides leave no edge, and
/// one cut at the right whose outline loses to the table's stripes), a hand's shadow that bent the
/// luma alignment (found by the second, shading-free one), and two recoloured one-hue siblings;
/// decision 0039).
/// The verification must tell light from content (`CoverVerifier.lightAware`): photos under light
/// it models are found, and no hard negative is answered, whatever light it is under. Same rule
/// as the scan pipeline (`TierZeroRule`); no timing.
@Suite("Tier 0 per degradation class")
struct TierZeroClassTests {
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

    /// (class, file, expected cover or nil) per photo, from classes/MANIFEST.tsv.
    func cases() throws -> [(name: String, file: String, expected: String?)] {
        let manifest = try String(decoding: ImageFixtures.data("classes/MANIFEST.tsv"), as: UTF8.self)
        return manifest.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return (fields[1], fields[0], fields[2] == "-" ? nil : fields[2])
        }
    }

    func decide(_ file: String, in library: Library) throws -> String? {
        try decide(path: "classes/\(file)", in: library)
    }

    func decide(path: String, in library: Library) throws -> String? {
        let photo = try preparer.preparePhoto(ImageFixtures.data(path))
        let shortlist = LocalMatcher.shortlist.shortlist(photo.hashes, in: library.table)
        let chosen = try TierZeroRule.decide(shortlist) { hit in
            try CoverVerifier.lightAware.check(photo, against: library.artwork[hit.albumID]!,
                                             coverHash: library.table.hash(of: hit.albumID)!)
        }
        return chosen.map { library.names[$0.albumID]! }
    }

    /// Light the verification models, things lying over the sleeve's edge, covers turned 5–25°
    /// or cut by the frame, a pale ring worn by the record, a hand's shadow: each photo of these
    /// classes is found. Among them, each the reason for a rule:
    /// - the thumb's photo, and a flat cover whose text the luma alignment set a few pixels off
    ///   (found only since the shading-free second alignment);
    /// - a cover at an angle under a gradient whose dim side kept its print at 4–5 grey levels;
    /// - a hand's shadow whose sharp fingers the smooth light field cannot follow (with wear, a
    ///   ring and low light), and a dark cover whose darkest parts low light pressed darker still;
    /// - two covers cut by the right side of a landscape frame, which run out of the vision square
    ///   too (looked at again in the photo around it, `PreparedPhoto.surround`; one was only 58 %
    ///   seen, the other not aligned);
    /// - a black star field under a lamp's haze and under dim light, whose hazed cells still
    ///   showing its stars count as seen (they were 47–56 % "seen", under the 60 % limit);
    /// - a flat green cover under a dim hand's shadow whose shading-free alignment agreed on 0.93
    ///   of its cells (the second chance asked 0.95);
    /// - a hand's shadow over a pale cover that bent the luma alignment out of any cover's shape
    ///   (the shading-free one was tried only after an alignment that kept a cover's shape);
    /// - a worn cover in dim light under a hand's shadow whose pale ring pulled every alignment
    ///   off its good outline (found only with the outline judged as found);
    /// - the violet cover with orange lettering on a striped table, a sticker over its corner: its
    ///   outline's luma hash farther than the square's, no alignment from the square, and too few
    ///   of 800 features on the photo left for the feature alignment (1200 now);
    /// - a cover at an angle under a lamp whose shading-free alignment agreed on 0.93 with a misfit
    ///   strip along one edge (6 % occluded; the second chance allowed 5 %, 8 % now);
    /// - a flat cover cut by the frame whose cells beside the cut read as textured: the blurs
    ///   reached the black the warp put outside the photo (the frame's edge is repeated now).
    @Test func photosUnderModelledLightAreFound() async throws {
        let classes = Set(TierZeroClassTests.acceptedClasses)
        let (missed, total) = try await BlockingWork.run { () -> ([String], Int) in
            let library = try self.library()
            let cases = try self.cases()
            var missed: [String] = []
            for item in cases where classes.contains(item.name) {
                if try self.decide(item.file, in: library) != item.expected { missed.append(item.file) }
            }
            return (missed, cases.count)
        }
        #expect(total == 49)
        #expect(missed.isEmpty, "not found: \(missed)")
    }

    /// The same artwork with another title or artist line, a recoloured series sibling, a reissue
    /// logo printed inside the artwork, and a cover half under an unknown sleeve: none is answered. The
    /// second artist line (`neg-artist-cover-09`, under ring wear) is dark blue on a blurred violet
    /// band: its letters broke into patches of one and four differing cells, under the content
    /// limit, until the cells between them, as much darker than the light as the letters, joined
    /// them into one line. A new title's band under a lamp's spot (`neg-title-cover-14`) hid a
    /// bright tile where the glare left enough contrast for it to show: flat there, it was taken as
    /// washed out until the glare's own compression of the print was asked for. A reissue logo by a
    /// corner (`neg-reissue-logo-cover-03`) passed the feature alignment, the last resort, as
    /// something lying over the edge at 0.81 agreement, until that alignment asked 0.85.
    @Test func hardNegativesAreRefused() async throws {
        let answered = try await BlockingWork.run { () -> [String] in
            let library = try self.library()
            return try self.cases().filter { $0.expected == nil }.compactMap { item in
                try self.decide(item.file, in: library).map { "\(item.file) → \($0)" }
            }
        }
        #expect(answered.isEmpty, "answered: \(answered)")
    }

    /// The fixture photos the calibration uses (`fixtures/images/photos`, `hard`, `negatives`) under
    /// `lightAware`: since its fifth round (the alignment on the cover's strongest colour axis when
    /// luma hides its print) it finds all 34 photos — the violet cover with orange lettering,
    /// `cover-01`, among them, twice — and all 3 hard recall cases (`standard`: 32 and 2), and answers nothing that is not
    /// in the crate — not even `negatives/unknown-02`, whose flat crate cover lying under an
    /// unknown one comes within the hash's strict gate only through a square run out of the frame.
    @Test func calibrationPhotosUnderLightAware() async throws {
        let (found, wrong, answered) = try await BlockingWork.run { () -> (Int, Int, [String]) in
            let library = try self.library()
            var found = 0, wrong = 0
            var answered: [String] = []
            for file in try ImageFixtures.files(in: "photos") {
                guard let decision = try self.decide(path: "photos/\(file)", in: library) else { continue }
                if file.hasPrefix(decision + "-") { found += 1 } else { wrong += 1 }
            }
            let manifest = try String(decoding: ImageFixtures.data("hard/MANIFEST.tsv"), as: UTF8.self)
            for line in manifest.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let decision = try self.decide(path: "hard/\(fields[0])", in: library)
                if fields[2] == "-" {
                    if let decision { answered.append("\(fields[0]) → \(decision)") }
                } else if decision == fields[2] {
                    found += 1
                } else if decision != nil {
                    wrong += 1
                }
            }
            for file in try ImageFixtures.files(in: "negatives") {
                if let decision = try self.decide(path: "negatives/\(file)", in: library) { answered.append("\(file) → \(decision)") }
            }
            return (found, wrong, answered)
        }
        #expect(wrong == 0)
        #expect(answered.isEmpty, "answered: \(answered)")
        #expect(found == 37)
    }

    static let acceptedClasses = [
        "perspective", "rotation", "crop", "tungsten", "fluorescent", "led", "gradient", "vignette", "glare", "hand-shadow",
        "sticker", "finger", "motion-blur", "jpeg40", "low-light", "clutter", "sleeve-wear", "ring-wear", "combo-angle-light",
        "combo-shop", "combo-worn-dim",
    ]
}
