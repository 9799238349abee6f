import Foundation

/// The batched MusicBrainz searches of an import (docs/decisions/0045-discogs-import.md), in
/// order: barcodes (`barcode:a OR barcode:b …`, 100 a query), catalogue numbers (`catno:"…" OR
/// …`, 50 a query, the label checked on the results), artist + title (`(release:"…" AND
/// artist:"…") OR …`, 15 a query), and one by one last, while the run's budget allows.
enum DiscogsReleaseMatcher {
    static let barcodeStage = 0, catalogueStage = 1, titleStage = 2, singleStage = 3

    /// Rows per query at each stage.
    static func batchSize(_ stage: Int) -> Int {
        switch stage {
        case barcodeStage: return 100
        case catalogueStage: return 50
        case titleStage: return 15
        default: return 1
        }
    }

    /// A batch's candidates below this score are no match (an agreeing barcode or catalogue
    /// number lifts a right release well above it; a namesake with another title stays below).
    static let minimumScore = 0.8

    /// The Lucene query for a batch at `stage`; nil when no row has what the stage searches by.
    static func query(stage: Int, items: [DiscogsImportItem]) -> String? {
        var seen = Set<String>()
        let terms: [String]
        switch stage {
        case barcodeStage:
            terms = items.compactMap { $0.barcode.flatMap(Barcode.init) }.flatMap(\.searchForms).map { "barcode:\($0)" }
        case catalogueStage:
            terms = items.compactMap(\.catalogNumber).map(LuceneQuery.clean).filter { !$0.isEmpty }.map { "catno:\(LuceneQuery.phrase($0))" }
        case titleStage:
            terms = items.map { "(\(LuceneQuery.exactRelease(title: $0.title, artist: $0.searchArtist)))" }
        default:
            terms = items.map { LuceneQuery.fuzzyRelease(title: $0.title, artist: $0.searchArtist) }
        }
        let unique = terms.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
        return unique.isEmpty ? nil : unique.joined(separator: " OR ")
    }

    /// The stage a row goes to when `stage` found nothing for it.
    static func nextStage(after stage: Int, for item: DiscogsImportItem) -> Int {
        stage == barcodeStage && item.catalogNumber != nil ? catalogueStage : max(stage + 1, titleStage)
    }

    /// The best candidate for `item` among a batch's results, or nil. At the barcode and
    /// catalogue stages only candidates carrying the row's barcode or catalogue number count.
    static func best(for item: DiscogsImportItem, stage: Int, among candidates: [ReleaseCandidate], scorer: CandidateScorer = CandidateScorer()) -> ReleaseCandidate? {
        let pool: [ReleaseCandidate]
        switch stage {
        case barcodeStage:
            guard let barcode = item.barcode.flatMap(Barcode.init) else { return nil }
            pool = candidates.filter { $0.barcode.flatMap(Barcode.init)?.isSameItem(as: barcode) == true }
        case catalogueStage:
            guard let number = item.catalogNumber else { return nil }
            pool = candidates.filter { $0.catalogNumbers.contains { CatalogueNumber.same(number, $0) } }
        default:
            pool = candidates
        }
        guard !pool.isEmpty else { return nil }
        let query = ReleaseQuery(title: item.title, artist: item.searchArtist, year: item.year, label: item.firstLabel,
                                 catalogNumber: item.catalogNumber, barcode: item.barcode, format: item.format)
        // "Various" and "Various Artists" are one credit, which text similarity alone misses.
        let normalised = pool.map { candidate -> ReleaseCandidate in
            var copy = candidate
            if ArtistCredit.isVarious(copy.artist) { copy.artist = "Various Artists" }
            return copy
        }
        guard let best = scorer.rank(normalised, for: query).first, best.score >= minimumScore else { return nil }
        return pool.first { $0.releaseID == best.releaseID }
    }
}
