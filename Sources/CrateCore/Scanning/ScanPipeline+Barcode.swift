import Foundation

/// Barcodes: typed (or a USB scanner's), and read from every photo scanned
/// (docs/decisions/0036-barcodes-with-zbar.md). Both go the same way: the crate first (offline,
/// instant: an album whose release carries that barcode), then a MusicBrainz `barcode:` search
/// for the exact release. Nothing is paid for.
extension ScanPipeline {
    /// A scan by barcode. Throws `.notIdentified` when neither the crate nor MusicBrainz knows it,
    /// and `.other` (saying so) when it is not in the crate and MusicBrainz cannot be reached.
    public func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void = { _ in }) async throws -> ScanResult {
        try database.checkWritable()
        if let entry = try saveCrateAlbum(withBarcodeIn: [barcode], batchItem: nil) {
            events(.identified(entry.album))
            return withRecord(try await fetchDetails(for: entry, tracks: entry.album.tracksStatus == .pending,
                                                     artwork: entry.album.artworkStatus != .available, events: events))
        }
        guard services.musicBrainz != nil else { throw ScanFailure.notIdentified }
        let found: BarcodeRelease?
        do {
            found = try await musicBrainzRelease(for: barcode)
        } catch MusicBrainzError.mustWait(let seconds) {
            throw ScanFailure.mustWait(service: "MusicBrainz", seconds: seconds, queued: false)
        } catch {
            // Not a photo: nothing waits in History, so say what to do instead.
            if ScanFailure.unreachableService(error) != nil {
                throw ScanFailure.other(L10n.tr("This barcode is not in your crate, and MusicBrainz cannot be reached to look it up. Try again when you are online."))
            }
            throw ScanFailure.other(UserMessage.text(for: error))
        }
        guard let found else { throw ScanFailure.notIdentified }
        return try await saveRelease(found, batchItem: nil, events: events)
    }

    // MARK: - Photo scans

    /// The record barcodes in a prepared photo (its kept luma), in the reader's order; none when
    /// there is no reader, when the plugin or ZBar is missing (`BarcodeReader.unavailable`, which
    /// the plugin loader logs once), or when all it found were books' (ISBN). Never fails a scan.
    func barcodes(in photo: PreparedPhoto) async -> [Barcode] {
        guard let reader = barcodeReader, photo.luma != nil else { return [] }
        do {
            return try await BlockingWork.run { try reader.read(photo) }
        } catch BarcodeError.isbn, BarcodeError.unavailable {
            return []
        } catch {
            Log.error("could not look for barcodes in the photo: \(UserMessage.text(for: error))")
            return []
        }
    }

    /// The photo's barcodes on MusicBrainz, each in turn, after tier 0 found nothing: the first
    /// that names a release is saved as a barcode scan. `.notFound` when none does (or there was
    /// nothing to search); `.couldNotSearch` with the error when a search failed (offline,
    /// MusicBrainz busy): the scan goes on as if there were no barcode.
    func scanOnMusicBrainz(_ barcodes: [Barcode], batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> PhotoBarcodeSearch {
        guard services.musicBrainz != nil else { return .notFound }
        for barcode in barcodes {
            let found: BarcodeRelease?
            do {
                found = try await musicBrainzRelease(for: barcode)
            } catch MusicBrainzError.mustWait(let seconds) {
                // The vision tier's search would have to wait just the same.
                throw ScanFailure.mustWait(service: "MusicBrainz", seconds: seconds, queued: batchItem != nil)
            } catch {
                Log.error("MusicBrainz search for barcode \(barcode.digits) failed: \(error.localizedDescription)")
                return .couldNotSearch(error)
            }
            if let found { return .found(try await saveRelease(found, batchItem: batchItem, events: events)) }
        }
        return .notFound
    }

    /// How the photo's barcodes fared on MusicBrainz.
    enum PhotoBarcodeSearch {
        case found(ScanResult)
        case notFound
        case couldNotSearch(Error)
    }

    // MARK: - Shared by both

    /// The crate's album for the first of `barcodes` it has, saved as a barcode scan; nil when the
    /// crate has none of them. Offline; several albums of one release: the newest.
    func saveCrateAlbum(withBarcodeIn barcodes: [Barcode], batchItem: Int64?) throws -> HistoryEntry? {
        for barcode in barcodes {
            if let album = try database.albums(withBarcode: barcode.digits).first {
                return try save(album, method: .barcode, confidence: 1, batchItem: batchItem)
            }
        }
        return nil
    }

    /// A barcode's release on MusicBrainz and up to five runners-up.
    struct BarcodeRelease {
        let album: Album
        let runnersUp: [ScanCandidate]
    }

    /// MusicBrainz's releases with `barcode` (its barcode field matches leading-zero spellings
    /// alike), official ones first, then by search score; nil when there are none. Throws the
    /// client's errors as they are.
    func musicBrainzRelease(for barcode: Barcode) async throws -> BarcodeRelease? {
        guard let musicBrainz = services.musicBrainz else { return nil }
        let found = try await musicBrainz.searchReleases(lucene: LuceneQuery.barcode(barcode), limit: 25)
        func rank(_ c: ReleaseCandidate) -> (Int, Int) { (c.status == "Official" ? 0 : 1, -(c.searchScore ?? 0)) }
        let ranked = found.sorted { rank($0) < rank($1) }
        func album(_ c: ReleaseCandidate) -> Album {
            Album(musicBrainzReleaseID: c.releaseID.rawValue, musicBrainzReleaseGroupID: c.releaseGroupID?.rawValue,
                  title: c.title, artist: c.artist, year: c.year.map(String.init), label: c.label)
        }
        guard let best = ranked.first else { return nil }
        return BarcodeRelease(album: album(best), runnersUp: ranked.dropFirst().prefix(5).map { ScanCandidate(album: album($0), score: nil) })
    }

    /// Saves a release found by barcode (the exact release: confidence 1) and fetches its details.
    private func saveRelease(_ found: BarcodeRelease, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let entry = try save(found.album, method: .barcode, confidence: 1, batchItem: batchItem, candidates: found.runnersUp)
        events(.identified(entry.album))
        var result = try await fetchDetails(for: entry, events: events)
        result.rankedCandidates = found.runnersUp
        return withRecord(result)
    }
}
