import CrateCore
import Foundation

/// One photo's outcome as `crate scan` prints it (the JSON shape is part of the CLI's contract).
struct ScanReport: Encodable {
    enum Status: String, Encodable {
        case identified
        case notIdentified = "not_identified"
        case error
    }

    struct AlbumJSON: Encodable {
        /// The crate's album id (for `crate own`, `crate want`, `crate pressings`).
        let id: Int64?
        let title: String
        let artist: String
        let year: String?
        let label: String?
        let genres: [String]
        let musicbrainz_release_id: String?
        let musicbrainz_release_group_id: String?
        let release: ReleaseJSON
    }

    struct CandidateJSON: Encodable {
        let title: String
        let artist: String
        let musicbrainz_release_id: String?
        let score: Double?
    }

    struct ArtworkJSON: Encodable {
        let status: String
        let path: String?
        let thumbnail_path: String?
    }

    /// `"pending"` (still to fetch: a later run or a re-scan gets it), `"failed"` (given up on
    /// after several tries), `"ok"`, or `"unavailable"` (the album has no release to look up).
    struct TracksJSON: Encodable {
        let status: String
    }

    struct ErrorJSON: Encodable {
        let code: String
        let message: String
        /// For `must_wait`: whole seconds the service asked for (absent otherwise).
        var retry_after_seconds: Int? = nil
        /// For `must_wait`: whether the photo stays in the bulk queue for a later run.
        var queued: Bool? = nil
    }

    let file: String
    let status: Status
    let tier: String?
    let album: AlbumJSON?
    let candidates: [CandidateJSON]
    let artwork: ArtworkJSON?
    let tracks: TracksJSON?
    let review: ScanReviewJSON?
    let scan_id: Int64?
    let error: ErrorJSON?
    /// Owned, wanted, seen or new: present for every identified scan.
    var verdict: VerdictJSON? = nil

    static func make(file: String, pipeline: ScanPipeline, url: URL) async -> ScanReport {
        do {
            let result = try await pipeline.scan(file: url) { _ in }
            return ScanReport(file: file, result: result)
        } catch let failure as ScanFailure {
            return ScanReport(file: file, failure: failure)
        } catch {
            let message = UserMessage.text(for: error)
            return ScanReport(file: file, status: .error, tier: nil, album: nil, candidates: [], artwork: nil, tracks: nil, review: nil, scan_id: nil,
                              error: ErrorJSON(code: "internal", message: message))
        }
    }

    init(file: String, status: Status, tier: String?, album: AlbumJSON?, candidates: [CandidateJSON], artwork: ArtworkJSON?, tracks: TracksJSON?,
         review: ScanReviewJSON?, scan_id: Int64?, error: ErrorJSON?) {
        self.file = file
        self.status = status
        self.tier = tier
        self.album = album
        self.candidates = candidates
        self.artwork = artwork
        self.tracks = tracks
        self.review = review
        self.scan_id = scan_id
        self.error = error
    }

    init(file: String, failure: ScanFailure) {
        self.init(file: file, status: failure == .notIdentified ? .notIdentified : .error, tier: nil, album: nil, candidates: [], artwork: nil,
                  tracks: nil, review: nil, scan_id: nil, error: Self.error(failure))
    }

    /// - Parameter artworkDirectory: where the library's relative artwork paths are resolved; the
    ///   report gives absolute paths.
    init(file: String, result: ScanResult, artworkDirectory: URL = CratePaths().artworkDirectory) {
        let album = result.entry.album
        let tier: String
        switch result.entry.scan.method {
        case .localMatch: tier = "local"
        case .vision: tier = "vision"
        case .visionSearch: tier = "vision+search"
        case .manual: tier = "manual"
        case .barcode: tier = "barcode"
        }
        let artwork: ArtworkJSON
        switch album.artworkStatus {
        case .available: artwork = ArtworkJSON(status: "ok", path: album.artworkURL(in: artworkDirectory)?.path,
                                                 thumbnail_path: album.thumbnailURL(in: artworkDirectory)?.path)
        case .unavailable: artwork = ArtworkJSON(status: "unavailable", path: nil, thumbnail_path: nil)
        // Still to fetch: the next run (or a re-scan) gets it (docs/reliability.md #21).
        case .pending: artwork = ArtworkJSON(status: "pending", path: nil, thumbnail_path: nil)
        case .failed: artwork = ArtworkJSON(status: "failed", path: nil, thumbnail_path: nil)
        }
        self.init(
            file: file, status: .identified, tier: tier,
            album: AlbumJSON(id: album.id, title: album.title, artist: album.artist, year: album.year, label: album.label, genres: album.genres,
                             musicbrainz_release_id: album.musicBrainzReleaseID, musicbrainz_release_group_id: album.musicBrainzReleaseGroupID,
                             release: ReleaseJSON(facts: result.releaseFacts)),
            candidates: result.candidates.enumerated().map { index, album in
                CandidateJSON(title: album.title, artist: album.artist, musicbrainz_release_id: album.musicBrainzReleaseID,
                              score: result.candidateScores.indices.contains(index) ? (result.candidateScores[index] * 1000).rounded() / 1000 : nil)
            },
            artwork: artwork,
            tracks: TracksJSON(status: album.tracksStatus.rawValue),
            review: ScanReviewJSON(result: result),
            scan_id: result.entry.scan.id, error: nil)
        verdict = result.verdict.map(VerdictJSON.init)
    }

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return #"{"status":"error"}"# }
        return Terminal.json(data)
    }

    /// One line for people: every value from outside (the file name, the album's names from
    /// MusicBrainz, the error's text) is spelled safe for a terminal.
    func humanLine() -> String {
        let file = Terminal.field(self.file)
        switch status {
        case .identified:
            let name = album.map { "\(Terminal.field($0.artist)) — \(Terminal.field($0.title))\($0.year.map { " (\(Terminal.field($0)))" } ?? "")" } ?? "?"
            let art = artwork?.status == "ok" ? "" : artwork?.status == "pending" ? " — Album art still to fetch" : " — Album art unavailable"
            let trackList = tracks?.status == "pending" ? " — track list still to fetch (next run, or `crate repair`)"
                : tracks?.status == "failed" ? " — track list could not be fetched" : ""
            // The shop question first: owned, wanted, seen, new.
            let verdict = self.verdict.map { "\($0.verdict.title.uppercased()) (\(Terminal.field($0.verdict.detail()))) " } ?? ""
            return "\(file): \(verdict)\(name) [\(tier ?? "?")]\(art)\(trackList)"
        case .notIdentified, .error:
            return "\(file): \(Terminal.field(error?.message ?? status.rawValue))"
        }
    }

    private static func error(_ failure: ScanFailure) -> ErrorJSON {
        var error = ErrorJSON(code: code(failure), message: failure.message)
        if case .mustWait(_, let seconds, let queued) = failure {
            error.retry_after_seconds = Int(seconds.rounded(.up))
            error.queued = queued
        }
        return error
    }

    private static func code(_ failure: ScanFailure) -> String {
        switch failure {
        case .notIdentified: return "not_identified"
        case .badImage: return "bad_image"
        case .providerKey: return "provider_key"
        case .other: return "failed"
        case .offline: return "offline"
        case .cancelled: return "cancelled"
        case .mustWait: return "must_wait"
        case .budgetUsedUp: return "budget_used_up"
        }
    }
}

/// The `review` field: the review's keys, or `{"status":"unavailable","message":…}`.
enum ScanReviewJSON: Encodable {
    case review(Review)
    case unavailable(String)

    init?(result: ScanResult) {
        if let review = result.review { self = .review(review) }
        else if let failure = result.reviewFailure { self = .unavailable(failure) }
        else { return nil }
    }

    private enum Keys: String, CodingKey {
        case context_summary, context_bullets, rating, recommendation, key_tracks, tier, prompt_version, used_search, status, message
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .review(let r):
            try c.encode(r.summary, forKey: .context_summary)
            try c.encode(r.bullets, forKey: .context_bullets)
            try c.encode(r.rating, forKey: .rating)
            try c.encode(r.recommendation, forKey: .recommendation)
            try c.encode(r.keyTracks, forKey: .key_tracks)
            try c.encode(r.tier, forKey: .tier)
            try c.encode(r.promptVersion, forKey: .prompt_version)
            try c.encode(r.usedSearch, forKey: .used_search)
        case .unavailable(let message):
            try c.encode("unavailable", forKey: .status)
            try c.encode(message, forKey: .message)
        }
    }
}
