import Foundation

// The searches identify-v2's sleeve hints allow: track titles through a recording search (the
// releases each recording appears on), and the pool every search's candidates are ranked in.

extension MusicBrainzClient {
    /// How many of the sleeve's track titles one recording search asks for.
    static let recordingTitlesPerSearch = 5

    /// `GET /recording?query=recording:"T" AND artist:"A"`: the releases of the recordings found,
    /// as candidates, the artist taken from the recording when the release names none. A release
    /// reached through a recording whose title is one the sleeve listed is marked so.
    public func releasesByRecording(_ query: ReleaseQuery, limit: Int = 10) async throws -> [ReleaseCandidate] {
        let titles = Array(query.trackTitles.prefix(Self.recordingTitlesPerSearch))
        let lucene = LuceneQuery.recordings(titles: titles, artist: query.artist)
        guard !lucene.isEmpty else { return [] }
        let url = try makeURL(path: "recording", query: "query=\(Self.formEncode(lucene))&fmt=json&limit=\(min(max(limit, 1), 100))")
        let body = try await get(url)
        let recordings: [MBRecording]
        do {
            recordings = try JSONDecoder().decode(MBRecordingSearchResponse.self, from: body).recordings
        } catch {
            throw MusicBrainzError.malformedResponse("recording search: \(Self.describe(error))")
        }
        var candidates: [ReleaseCandidate] = []
        for recording in recordings {
            let readOnSleeve = recording.title.map { title in
                query.trackTitles.contains { MusicText.similarity($0, title) >= scorer.strongMatch }
            } ?? false
            for release in recording.releases {
                guard var candidate = ReleaseCandidate(release) else { continue }
                if candidate.artist.isEmpty { candidate.artist = recording.artistName }
                candidate.hasTrackFromSleeve = readOnSleeve
                candidates.append(candidate)
            }
        }
        return candidates
    }
}

extension ReleaseQuery {
    /// The format hint says single or EP.
    var isSingleOrEP: Bool { SleeveReading(format: format).looksLikeSingleOrEP }
}

/// Every search's candidates, once each (a release found twice keeps what each search learned),
/// ranked together against the query.
struct CandidatePool {
    let query: ReleaseQuery
    let scorer: CandidateScorer
    private var candidates: [ReleaseCandidate] = []
    private var index: [MBID: Int] = [:]
    private(set) var ranked: [ReleaseCandidate] = []

    init(query: ReleaseQuery, scorer: CandidateScorer) {
        self.query = query
        self.scorer = scorer
    }

    mutating func add(_ found: [ReleaseCandidate]) {
        for candidate in found {
            if let at = index[candidate.releaseID] {
                candidates[at].hasTrackFromSleeve = candidates[at].hasTrackFromSleeve || candidate.hasTrackFromSleeve
                if candidates[at].catalogNumbers.isEmpty { candidates[at].catalogNumbers = candidate.catalogNumbers }
                if candidates[at].labels.isEmpty { candidates[at].labels = candidate.labels }
                if candidates[at].barcode == nil { candidates[at].barcode = candidate.barcode }
            } else {
                index[candidate.releaseID] = candidates.count
                candidates.append(candidate)
            }
        }
        ranked = scorer.rank(candidates, for: query)
    }

    var bestScore: Double { ranked.first?.score ?? 0 }
    var match: ReleaseMatch { ReleaseMatch(ranked: ranked) }
}

// MARK: - Recording search JSON

struct MBRecordingSearchResponse: Decodable {
    let recordings: [MBRecording]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard c.contains(AnyKey("recordings")) else {
            throw DecodingError.keyNotFound(AnyKey("recordings"), .init(codingPath: [], debugDescription: "no recordings"))
        }
        recordings = c.lenientArray(MBRecording.self, AnyKey("recordings"))
    }
}

struct MBRecording: Decodable {
    let title: String?
    let artistCredit: [MBArtistCredit]
    /// The releases it appears on (search results carry title, status, date, release group).
    let releases: [MBRelease]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        title = c.lenientString(AnyKey("title"))
        artistCredit = c.lenientArray(MBArtistCredit.self, AnyKey("artist-credit"))
        releases = c.lenientArray(MBRelease.self, AnyKey("releases"))
    }

    var artistName: String {
        artistCredit.map { ($0.name ?? $0.artist?.name ?? "") + ($0.joinphrase ?? "") }.joined()
            .trimmingCharacters(in: .whitespaces)
    }
}
