import Foundation

/// The album's artwork and track list, fetched once it is identified (each fails on its own).
extension ScanPipeline {
    /// The Cover Art Archive has no art for the release (404): the album's own files may carry
    /// some — a cover image in their folder or a picture embedded in them (`MusicLocalArt`, the
    /// same checks and decoder as downloaded art) — when the music folder index matches the album
    /// to exactly one album on disk. Stored like downloaded art (under the release id). False
    /// when there is none usable (a damaged image is skipped): the album keeps the placeholder.
    private func storeLocalArtwork(for album: Album, albumID: Int64, releaseID: MBID) async throws -> Bool {
        let database = self.database, preparer = self.preparer
        let prepared: PreparedArtwork? = try await BlockingWork.run {
            let files: [MusicFile]
            do {
                files = try database.readableMusicFiles()
            } catch {
                Log.error("artwork: could not read the music folder index: \(UserMessage.text(for: error))")
                return nil
            }
            guard !files.isEmpty, case .matched(let disk, _) = AlbumMatcher(files: files).match(album) else { return nil }
            return MusicLocalArt.prepared(for: disk, preparer: preparer)
        }
        guard let prepared else { return false }
        let files = try await artworkCache.store(prepared.large, thumbnail: prepared.thumbnail, for: releaseID)
        try database.saveCoverHash(prepared.hash, forAlbum: albumID)
        await hashes.add(prepared.hash, albumID: albumID)
        try database.setArtwork(albumID: albumID, status: .available, artworkPath: artworkCache.storedPath(for: files.artwork),
                                thumbnailPath: files.thumbnail.map(artworkCache.storedPath(for:)))
        return true
    }

    func fetchArtwork(for album: Album) async -> DetailsOutcome {
        guard let albumID = album.id else { return .skipped }
        guard let coverArt = services.coverArt else { return .skipped }
        guard let releaseID = album.musicBrainzReleaseID.flatMap(MBID.init(validating:)) else {
            try? database.setArtwork(albumID: albumID, status: .unavailable)
            return .done
        }
        do {
            let groupID = album.musicBrainzReleaseGroupID.flatMap(MBID.init(validating:))
            switch try await coverArt.frontCover(release: releaseID, releaseGroup: groupID) {
            case .unavailable:
                if try await storeLocalArtwork(for: album, albumID: albumID, releaseID: releaseID) { break }
                try database.setArtwork(albumID: albumID, status: .unavailable)
            case .image(let image):
                let preparer = self.preparer
                let prepared = try await BlockingWork.run { try preparer.prepareArtwork(image.data) }
                let files = try await artworkCache.store(prepared.large, thumbnail: prepared.thumbnail, for: releaseID)
                try database.saveCoverHash(prepared.hash, forAlbum: albumID)
                await hashes.add(prepared.hash, albumID: albumID)
                try database.setArtwork(albumID: albumID, status: .available, artworkPath: artworkCache.storedPath(for: files.artwork),
                                        thumbnailPath: files.thumbnail.map(artworkCache.storedPath(for:)))
            }
            return .done
        } catch CoverArtError.mustWait {
            // Not the album's fault: it stays as it was for a later run, no try counted.
            return .mustWait
        } catch {
            // Marked failed (not unavailable) so a later scan or the repair pass fetches it again.
            Log.error("artwork for \(releaseID.rawValue) failed: \(error.localizedDescription)")
            try? database.recordArtworkFailure(albumID: albumID, message: (error as? LocalizedError)?.errorDescription ?? "\(error)")
            return .failed
        }
    }

    func fetchTracks(for album: Album) async -> DetailsOutcome {
        guard let albumID = album.id, let musicBrainz = services.musicBrainz else { return .skipped }
        guard let releaseID = album.musicBrainzReleaseID.flatMap(MBID.init(validating:)) else {
            try? database.settleTrackListWithoutRelease(albumID: albumID)
            return .done
        }
        do {
            let details = try await musicBrainz.release(releaseID)
            try database.saveReleaseDetails(albumID: albumID, details: details)
            return .done
        } catch MusicBrainzError.mustWait {
            return .mustWait
        } catch {
            // Still pending (retried by the next run) until its tries are used up (docs/reliability.md #20).
            Log.error("track list for \(releaseID.rawValue) failed: \(error.localizedDescription)")
            _ = try? database.recordTrackListFailure(albumID: albumID, message: (error as? LocalizedError)?.errorDescription ?? "\(error)")
            return .failed
        }
    }
}
