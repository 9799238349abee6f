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
    /// Owned, wanted, seen before or new — as the collection stood before this scan.
    public var verdict: Verdict?
    /// The exact release's facts, when looked up.
    public var releaseFacts: ReleaseFacts?

    public init(entry: HistoryEntry, candidates: [Album] = [], review: Review? = nil, reviewFailure: String? = nil,
                verdict: Verdict? = nil, releaseFacts: ReleaseFacts? = nil) {
        self.entry = entry
        self.verdict = verdict
        self.releaseFacts = releaseFacts
        self.candidates = candidates
        self.review = review
        self.reviewFailure = reviewFailure
    }

    /// The candidates with their scores, best first. Unscored ones (the album a switch replaced)
    /// come last, so `candidateScores` holds the scores of the first `candidateScores.count`.
    public var rankedCandidates: [ScanCandidate] {
        get {
            candidates.enumerated().map { index, album in
                ScanCandidate(album: album, score: candidateScores.indices.contains(index) ? candidateScores[index] : nil)
            }
        }
        set {
            candidates = newValue.map(\.album)
            candidateScores = newValue.prefix { $0.score != nil }.compactMap(\.score)
        }
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
    /// `service` could not be reached (no network, DNS, a refused or dropped connection). Nothing
    /// is the photo's fault: it stays queued and is scanned again when the network is back.
    case offline(service: String)
    case cancelled
    /// `service` asked for a pause longer than a scan waits (a long `Retry-After`): the photo was
    /// not scanned and nothing was saved. `queued`: it is in the bulk queue and stays there, so a
    /// later run scans it.
    case mustWait(service: String, seconds: TimeInterval, queued: Bool)
    /// This month's budget for the identification service is used up (the sentence says until
    /// when). Tier 0 still answered first; the photo waits in the queue for a raised budget or
    /// the next month.
    case budgetUsedUp(String)

    public var message: String {
        switch self {
        case .budgetUsedUp(let message): return message
        case .notIdentified: return L10n.tr("Unable to identify this cover art")
        case .badImage(let message), .providerKey(let message), .other(let message): return message
        case .offline(let service):
            return L10n.tr("Crate could not reach %@. Check the internet connection; the photo waits in History and is scanned again when the connection is back.", service)
        case .cancelled: return L10n.tr("Scan cancelled")
        case .mustWait(let service, let seconds, true):
            return L10n.tr("%@ asked Crate to pause; it waits %@ — the scan is queued and will be tried again on the next run after that.", service, WaitDuration.spoken(seconds))
        case .mustWait(let service, let seconds, false):
            return L10n.tr("%@ asked Crate to pause; it waits %@ — this photo was not scanned and nothing was saved; scan it again after that.", service, WaitDuration.spoken(seconds))
        }
    }
}

/// Runs one scan. The live implementation chains imaging, tier 0, the vision provider,
/// MusicBrainz, the Cover Art Archive and reviews; tests substitute their own.
public protocol AlbumScanner: Sendable {
    func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    /// Replaces the album of scan `scanID` with `candidate` (a runner-up the user picked).
    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    /// A typed or USB-scanned barcode: the crate first, then MusicBrainz (no photo, nothing paid).
    func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    /// "Tell Crate what it is": saves `album` as a scan (of `unscannedPhoto`, when given).
    func identify(as album: Album, unscannedPhoto: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
}

extension AlbumScanner {
    /// Scanners that know no barcodes (test stand-ins) find nothing.
    public func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        throw ScanFailure.notIdentified
    }

    public func identify(as album: Album, unscannedPhoto: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        throw ScanFailure.notIdentified
    }
}

extension ScanFailure: LocalizedError {
    public var errorDescription: String? { message }
}
