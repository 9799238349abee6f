import CCratePlugins
import Foundation

/// What tier 0's verification saw when it compared a photo with one cover.
public struct CoverCheck: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// The photo shows this cover.
        case accepted
        /// Aligned, but the cover differs (text, layout, colour) or too little of it is seen.
        case differs
        /// The photo could not be aligned with the cover.
        case notAligned
    }

    public let outcome: Outcome
    /// Correlation after alignment (−1…1).
    public let correlation: Double
    /// Share of the cover seen: inside the photo, and not under glare or a shadow unless its print
    /// still matched there (0…1).
    public let visible: Double
    /// Share of the seen cells that agree in texture and colour once light is accounted for (0…1).
    public let agreement: Double
    /// Share of the cover under something over its edge (a sticker, a thumb) (0…1).
    public let occluded: Double
    /// Cells of different print found inside the artwork.
    public let content: Int

    public init(outcome: Outcome, correlation: Double, visible: Double, agreement: Double, occluded: Double = 0,
                content: Int = 0) {
        self.outcome = outcome
        self.correlation = correlation
        self.visible = visible
        self.agreement = agreement
        self.occluded = occluded
        self.content = content
    }

    public var accepted: Bool { outcome == .accepted }
}

/// Tier 0's second opinion (docs/decisions, "Tier 0 verification"): before a hash match is
/// accepted, the photo is aligned with the album's stored artwork (starting from the square the
/// hash picked; a homography refined by ECC) and compared cell by cell in texture and colour
/// (`Method.cells`). `Method.lightAware` (decision 0039) takes the light's brightness field and
/// colour transform out first and judges what still differs by where it lies.
/// The same artwork with another title, the same photograph on another sleeve, a series sibling
/// in other colours and a cover mostly hidden by another all fail it.
public struct CoverVerifier: Sendable {
    /// Which comparison runs (see `crate_cover_check_limits.method`).
    public enum Method: Int32, Sendable {
        /// Cells in texture and a*b* colour (decision 0015).
        case cells = 0
        /// Light told from content (decision 0039).
        case lightAware = 1
    }

    /// See `crate_cover_check_limits` for what each one means.
    public var method: Method
    public var minCorrelation: Double
    public var minAgreement: Double
    public var closeCorrelation: Double
    public var minAgreementWhenClose: Double
    public var minVisible: Double
    public var maxOccluded: Double
    public var maxContent: Int

    /// The calibrated thresholds: the plugin's `defaults` (single precision, as they cross into
    /// C), repeated here so that making a verifier does not load OpenCV; a test checks they agree.
    public static let standard = CoverVerifier(method: .cells, minCorrelation: Double(Float(0.3)),
                                               minAgreement: Double(Float(0.95)), closeCorrelation: Double(Float(0.9)),
                                               minAgreementWhenClose: Double(Float(0.75)), minVisible: Double(Float(0.7)),
                                               maxOccluded: Double(Float(0.2)), maxContent: 4)

    /// Light told from content (decision 0039), the scan's default: measured with `crate-bench
    /// tier0-classes`, 159 of 168 hard photos found and none of the 40 hard negatives under four
    /// lights answered (`standard`: 119 and 10 wrong albums), but 1 of 40 under harder troubles
    /// (a ring, a shadow); on the calibration photos 37 of 37 (`standard` 34).
    /// Under this correlation, an alignment to an implausible shape is `differs` (light-aware
    /// only): true photos the hash decided that way aligned at 0.89–0.92, a recoloured sibling at 0.25.
    static let misfitCorrelation: Float = 0.5

    public static let lightAware = CoverVerifier(method: .lightAware, minCorrelation: Double(Float(0.1)),
                                                 minAgreement: Double(Float(0.75)), closeCorrelation: 1,
                                                 minAgreementWhenClose: 1, minVisible: Double(Float(0.6)),
                                                 maxOccluded: Double(Float(0.2)), maxContent: 4)

    /// The thresholds libCrateCoverCheck.so calibrated (loads it).
    public static func pluginDefaults() throws(PluginError) -> CoverVerifier {
        let limits = try table().pointee.defaults!()
        return CoverVerifier(method: Method(rawValue: limits.method) ?? .cells, minCorrelation: Double(limits.min_correlation),
                             minAgreement: Double(limits.min_agreement), closeCorrelation: Double(limits.close_correlation),
                             minAgreementWhenClose: Double(limits.min_agreement_when_close),
                             minVisible: Double(limits.min_visible), maxOccluded: Double(limits.max_occluded),
                             maxContent: Int(limits.max_content))
    }

    /// The verification's functions, from libCrateCoverCheck.so (opened on first use).
    static func table() throws(PluginError) -> UnsafePointer<crate_cover_check_table> {
        try PluginLoader.table(.coverCheck).assumingMemoryBound(to: crate_cover_check_table.self)
    }

    /// Nil when verification can run; otherwise why not (the plugin is missing or cannot load).
    /// Without it tier 0 answers nothing, exactly as for an album without artwork on disk.
    public static var unavailable: PluginError? { PluginLoader.status(.coverCheck) }

    public init(method: Method, minCorrelation: Double, minAgreement: Double, closeCorrelation: Double,
                minAgreementWhenClose: Double, minVisible: Double, maxOccluded: Double, maxContent: Int) {
        self.method = method
        self.minCorrelation = minCorrelation
        self.minAgreement = minAgreement
        self.closeCorrelation = closeCorrelation
        self.minAgreementWhenClose = minAgreementWhenClose
        self.minVisible = minVisible
        self.maxOccluded = maxOccluded
        self.maxContent = maxContent
    }

    /// Compares the photo's vision image with `artwork` (upright RGB), starting from the crop
    /// square whose hash came nearest `coverHash`. When a cover outline (`PhotoHashes.outlines`)
    /// came nearer still, the check starts from it first: a turned cover's outline undoes the
    /// turn a square cannot. Only its acceptance is kept; otherwise the square's verdict stands,
    /// so a poor outline never costs a photo the square would find. No crop-search square: not
    /// aligned. Throws when verification is unavailable (libCrateCoverCheck.so missing or not loadable).
    public func check(_ photo: PreparedPhoto, against artwork: RGBImage, coverHash: Hash256) throws(PluginError) -> CoverCheck {
        _ = try Self.table()
        guard let square = photo.hashes.nearestSquare(to: coverHash) else {
            return CoverCheck(outcome: .notAligned, correlation: 0, visible: 0, agreement: 0, occluded: 0, content: 0)
        }
        let vision = photo.visionImage
        let seenWhole = photo.surround.width == vision.width && photo.surround.height == vision.height
        var starts = [CropOutline(square: square)]
        if let start = photo.hashes.nearestStart(to: coverHash), start != starts[0] { starts.insert(start, at: 0) }
        var verdict: CoverCheck?
        for start in starts {
            verdict = try check(vision, outline: start, against: artwork)
            if verdict!.accepted { return verdict! }
            // A cover near the side of a landscape or portrait photo runs out of the vision square,
            // where the part outside reads as not seen: it is looked at again in the surround. Only
            // a second chance, as the verification was calibrated on the square.
            if !seenWhole, start.points.contains(where: { $0 < 0 || $0 > 1 }) {
                let again = try check(photo.surround, corners: photo.surroundCorners(start), against: artwork)
                if again.accepted { return again }
            }
        }
        return verdict!
    }

    /// As above, with the square given (fractions of `image`'s side).
    public func check(_ image: RGBImage, square: CropSquare, against artwork: RGBImage) throws(PluginError) -> CoverCheck {
        try check(image, outline: CropOutline(square: square), against: artwork)
    }

    /// As above, with the outline given (fractions of `image`'s side).
    public func check(_ image: RGBImage, outline: CropOutline, against artwork: RGBImage) throws(PluginError) -> CoverCheck {
        let side = Double(min(image.width, image.height))
        return try check(image, corners: outline.points.map { $0 * side }, against: artwork)
    }

    /// As above, with the outline's four corners given in `image`'s pixels (x0, y0, … x3, y3).
    func check(_ image: RGBImage, corners: [Double], against artwork: RGBImage) throws(PluginError) -> CoverCheck {
        let run = try Self.table().pointee.run!
        let photo = image.channels == 3 ? image : image.rgb()
        let cover = artwork.channels == 3 ? artwork : artwork.rgb()
        var limits = crate_cover_check_limits()
        limits.method = method.rawValue
        limits.min_correlation = Float(minCorrelation)
        limits.min_agreement = Float(minAgreement)
        limits.close_correlation = Float(closeCorrelation)
        limits.min_agreement_when_close = Float(minAgreementWhenClose)
        limits.min_visible = Float(minVisible)
        limits.max_occluded = Float(maxOccluded)
        limits.max_content = Int32(maxContent)
        var result = crate_cover_check()
        guard corners.count == 8 else {
            return CoverCheck(outcome: .notAligned, correlation: 0, visible: 0, agreement: 0)
        }
        photo.pixels.withUnsafeBufferPointer { p in
            cover.pixels.withUnsafeBufferPointer { c in
                corners.withUnsafeBufferPointer { q in
                    run(p.baseAddress, Int32(photo.width), Int32(photo.height),
                        c.baseAddress, Int32(cover.width), Int32(cover.height), q.baseAddress, limits, &result)
                }
            }
        }
        let outcome: CoverCheck.Outcome
        if result.status == 0 {
            outcome = result.accepted != 0 ? .accepted : .differs
        } else if method == .lightAware, result.status == 4, result.correlation < Self.misfitCorrelation {
            // Aligned, after every second chance, to a shape no cover has, with the print barely
            // correlated: the photo does not fit this cover, which is not "could not align" (a
            // recoloured sibling otherwise went to the hash's strict gate, and the hash said yes).
            outcome = .differs
        } else {
            outcome = .notAligned
        }
        return CoverCheck(outcome: outcome, correlation: Double(result.correlation), visible: Double(result.visible),
                          agreement: Double(result.agreement), occluded: Double(result.occluded),
                          content: Int(result.content))
    }
}

extension RGBImage {
    /// Grey repeated into three channels (an RGB image is returned as is).
    func rgb() -> RGBImage {
        guard channels == 1 else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            out[3 * i] = pixels[i]
            out[3 * i + 1] = pixels[i]
            out[3 * i + 2] = pixels[i]
        }
        return RGBImage(width: width, height: height, channels: 3, pixels: out)
    }
}

/// Tier 0's rule, shared by the scan pipeline and `crate-bench calibrate`: the shortlist
/// (`LocalMatcher.shortlist`) is checked nearest first, and the first album the verification
/// accepts is the answer. The one exception keeps what the hash alone already did well: when the
/// nearest album passes the hash's own strict gate (`LocalMatcher.standard`) and the verification
/// could not align the photo at all (flat covers give it nothing to hold on to), the hash decides.
/// A verification that aligned the photo and saw a different print, layout or colour always wins.
public enum TierZeroRule {
    public static func decide(_ shortlist: [LocalMatch], strict: LocalMatcher = .standard,
                              check: (LocalMatch) throws -> CoverCheck?) rethrows -> LocalMatch? {
        for (index, hit) in shortlist.enumerated() {
            guard let verdict = try check(hit) else { continue }
            if verdict.accepted { return hit }
            if index == 0, verdict.outcome == .notAligned, hit.passes(strict) {
                return hit
            }
        }
        return nil
    }
}
