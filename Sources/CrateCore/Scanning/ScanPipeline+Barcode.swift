import Foundation

extension ScanPipeline {
    /// A scan by barcode (typed, or a USB scanner's): the crate first (offline, instant: an album
    /// whose release carries that barcode), then a MusicBrainz `barcode:` search for the exact
    /// release. Nothing is paid for. Throws `.notIdentified` when neither knows it, and `.other`
    /// (saying so) when it is not in the crate and MusicBrainz cannot be reached.
    public func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void = { _ in }) async throws -> ScanResult {
        try database.checkWritable()
        if let album = try database.albums(withBarcode: barcode.digits).first {
            let entry = try database.saveScan(of: album, method: .barcode, confidence: 1)
            events(.identified(entry.album))
            return withRecord(try await fetchDetails(for: entry, tracks: album.tracksStatus == .pending,
                                                     artwork: album.artworkStatus != .available, events: events))
        }
        guard let musicBrainz = services.musicBrainz else { throw ScanFailure.notIdentified }
        let found: [ReleaseCandidate]
        do {
            found = try await musicBrainz.searchReleases(lucene: LuceneQuery.barcode(barcode), limit: 25)
        } catch MusicBrainzError.mustWait(let seconds) {
            throw ScanFailure.mustWait(service: "MusicBrainz", seconds: seconds, queued: false)
        } catch {
            // Not a photo: nothing waits in History, so say what to do instead.
            if ScanFailure.unreachableService(error) != nil {
                throw ScanFailure.other(L10n.tr("This barcode is not in your crate, and MusicBrainz cannot be reached to look it up. Try again when you are online."))
            }
            throw ScanFailure.other(UserMessage.text(for: error))
        }
        // MusicBrainz's barcode field matches leading-zero spellings alike; official releases first.
        let ranked = found.sorted { ($0.status == "Official" ? 0 : 1, -($0.searchScore ?? 0)) < ($1.status == "Official" ? 0 : 1, -($1.searchScore ?? 0)) }
        guard let best = ranked.first else { throw ScanFailure.notIdentified }
        let album = Album(musicBrainzReleaseID: best.releaseID.rawValue, musicBrainzReleaseGroupID: best.releaseGroupID?.rawValue,
                          title: best.title, artist: best.artist, year: best.year.map(String.init), label: best.label)
        let runnersUp = ranked.dropFirst().prefix(5).map {
            ScanCandidate(album: Album(musicBrainzReleaseID: $0.releaseID.rawValue, musicBrainzReleaseGroupID: $0.releaseGroupID?.rawValue,
                                       title: $0.title, artist: $0.artist, year: $0.year.map(String.init), label: $0.label), score: nil)
        }
        let entry = try database.saveScan(of: album, method: .barcode, confidence: 1, candidates: Array(runnersUp))
        events(.identified(entry.album))
        var result = try await fetchDetails(for: entry, events: events)
        result.rankedCandidates = Array(runnersUp)
        return withRecord(result)
    }
}
