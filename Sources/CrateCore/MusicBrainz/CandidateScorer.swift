import Foundation

/// Ranks release candidates against what was read off the cover, like beets' and Picard's
/// matchers: a weighted distance over artist and title similarity, release status, release-group
/// type and date. Official studio albums and original (earliest) releases win over compilations,
/// bootlegs and reissues of the same name.
public struct CandidateScorer: Sendable {
    /// Weights of each component of the distance; string similarity dominates.
    public struct Weights: Sendable {
        public var artist = 3.0
        public var title = 3.0
        public var status = 0.6
        public var primaryType = 0.6
        public var secondaryTypes = 0.6
        public var date = 0.4

        public init() {}

        var total: Double { artist + title + status + primaryType + secondaryTypes + date }
    }

    public var weights = Weights()
    /// Candidates this similar in title and artist define the "original release" year.
    public var strongMatch = 0.85
    /// How much of the distance left to 1 a sleeve hint the candidate agrees with takes away.
    public struct SleeveBonus: Sendable {
        public var barcode = 0.6
        public var catalogNumber = 0.5
        public var track = 0.4
        public var label = 0.15

        public init() {}
    }

    public var sleeveBonus = SleeveBonus()

    public init() {}

    /// The candidates with `score` set, best first.
    public func rank(_ candidates: [ReleaseCandidate], for query: ReleaseQuery) -> [ReleaseCandidate] {
        let referenceYear = query.year.flatMap { Int($0.prefix(4)) } ?? earliestYear(of: candidates, for: query)
        let scored = candidates.map { candidate -> ReleaseCandidate in
            var copy = candidate
            copy.score = score(candidate, for: query, referenceYear: referenceYear)
            return copy
        }
        return scored.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.year != b.year { return (a.year ?? .max) < (b.year ?? .max) }
            return (a.searchScore ?? 0) > (b.searchScore ?? 0)
        }
    }

    /// 1 − weighted distance, in 0...1.
    public func score(_ candidate: ReleaseCandidate, for query: ReleaseQuery, referenceYear: Int?) -> Double {
        var distance = 0.0
        distance += weights.artist * (1 - MusicText.similarity(candidate.artist, query.artist))
        distance += weights.title * (1 - MusicText.similarity(candidate.title, query.title))
        distance += weights.status * statusPenalty(candidate.status)
        distance += weights.primaryType * primaryTypePenalty(candidate.primaryType)
        distance += weights.secondaryTypes * (candidate.secondaryTypes.isEmpty ? 0 : 1)
        distance += weights.date * datePenalty(candidate.year, reference: referenceYear)
        let base = max(0, 1 - distance / weights.total)
        // What else the sleeve said only ever raises a candidate that agrees with it.
        return base + (1 - base) * sleeveAgreement(candidate, query)
    }
}

// MARK: - Private

private extension CandidateScorer {
    /// 0 when the candidate agrees with none of the sleeve's hints (or there are none); each
    /// agreeing hint takes its share of what is left.
    func sleeveAgreement(_ candidate: ReleaseCandidate, _ query: ReleaseQuery) -> Double {
        var remaining = 1.0
        if let read = query.validBarcode, let theirs = candidate.barcode, let barcode = try? Barcode(typed: theirs), barcode.isSameItem(as: read) {
            remaining *= 1 - sleeveBonus.barcode
        }
        if let read = query.catalogNumber, candidate.catalogNumbers.contains(where: { CatalogueNumber.same(read, $0) }) {
            remaining *= 1 - sleeveBonus.catalogNumber
        }
        if candidate.hasTrackFromSleeve { remaining *= 1 - sleeveBonus.track }
        if let read = query.label, !read.isEmpty, candidate.labels.contains(where: { MusicText.similarity($0, read) >= strongMatch }) {
            remaining *= 1 - sleeveBonus.label
        }
        return 1 - remaining
    }

    func earliestYear(of candidates: [ReleaseCandidate], for query: ReleaseQuery) -> Int? {
        candidates
            .filter {
                MusicText.similarity($0.title, query.title) >= strongMatch
                    && MusicText.similarity($0.artist, query.artist) >= strongMatch
            }
            .compactMap(\.year)
            .min()
    }

    func statusPenalty(_ status: String?) -> Double {
        switch status?.lowercased() {
        case "official": return 0
        case nil, "": return 0.5
        default: return 1  // Bootleg, Promotion, Pseudo-Release, Withdrawn
        }
    }

    func primaryTypePenalty(_ type: String?) -> Double {
        switch type?.lowercased() {
        case "album": return 0
        case nil, "": return 0.5
        case "ep": return 0.5
        default: return 1  // Single, Broadcast, Other
        }
    }

    /// 0 for the reference year, growing by 0.1 a year (capped at 1); 0.5 when a date is missing.
    func datePenalty(_ year: Int?, reference: Int?) -> Double {
        guard let reference else { return 0 }
        guard let year else { return 0.5 }
        return min(1, Double(abs(year - reference)) / 10)
    }
}
