import Foundation

/// Milestones a scan reports while it runs, in order.
public enum ScanEvent: Equatable, Sendable {
    /// The album is known (artwork, tracks and review are still on their way).
    case identified(Album)
    /// Artwork and tracks are settled; the review is being written.
    case loadingReview(Album)
}

/// What a finished scan produced.
public struct ScanResult: Equatable, Sendable {
    public var entry: HistoryEntry
    /// Other albums the photo might show ("Not this album?").
    public var candidates: [Album]
    /// The candidates' match scores (0–1), same order; empty when not scored.
    public var candidateScores: [Double] = []
    /// nil when no review was asked for (no provider) or it failed (see `reviewFailure`).
    public var review: Review?
    public var reviewFailure: String?

    public init(entry: HistoryEntry, candidates: [Album] = [], review: Review? = nil, reviewFailure: String? = nil) {
        self.entry = entry
        self.candidates = candidates
        self.review = review
        self.reviewFailure = reviewFailure
    }
}

/// Why a scan did not produce an album. Messages are the ones the user sees.
public enum ScanFailure: Error, Equatable, Sendable {
    /// The photo was read but nothing matched.
    case notIdentified
    /// The file is not a usable image ("This file is not an image", "Image too large", …).
    case badImage(String)
    /// The provider rejected the key: say so and point to Preferences.
    case providerKey(String)
    /// Anything else worth telling (network down, server errors), already phrased for the user.
    case other(String)
    case cancelled

    public var message: String {
        switch self {
        case .notIdentified: return "Unable to identify this cover art"
        case .badImage(let message), .providerKey(let message), .other(let message): return message
        case .cancelled: return "Scan cancelled"
        }
    }
}

/// Runs one scan. The live implementation chains imaging, tier 0, the vision provider,
/// MusicBrainz, the Cover Art Archive and reviews; tests substitute their own.
public protocol AlbumScanner: Sendable {
    func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    /// Replaces the album of scan `scanID` with `candidate` (a runner-up the user picked).
    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
}

extension ScanFailure: LocalizedError {
    public var errorDescription: String? { message }
}
