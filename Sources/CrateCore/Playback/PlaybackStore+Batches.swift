import Foundation

extension PlaybackStore {
    // MARK: - Sessions

    func newSession() -> Int {
        endSession()
        return session
    }

    /// Forgets the queue and cancels background work; results still in flight are dropped.
    func endSession() {
        session += 1
        prefetch?.cancel()
        prefetch = nil
        advanceTask = nil
        manager?.stop()
        manager = nil
        isStarting = false
        state.update {
            $0.nowPlayingAlbum = nil
            $0.nowPlayingTrack = nil
            $0.isPreparingQueue = false
            $0.batchAlbumIDs = []
        }
    }

    // MARK: - Loading

    /// Loads albums and track lists for a batch: the library first, then the lookup. Sequential,
    /// so a lookup never bursts requests at a rate-limited metadata service.
    func loadBatch(_ albumIDs: [Int64]) async -> BatchContent {
        var content = BatchContent(albumIDs: albumIDs)
        let database = self.database
        for albumID in albumIDs where content.albums[albumID] == nil && !content.missingAlbumIDs.contains(albumID) {
            do {
                let (album, stored) = try await Task.detached(priority: .userInitiated) {
                    (try database.album(id: albumID), try database.tracks(forAlbum: albumID))
                }.value
                guard let album else {
                    content.missingAlbumIDs.append(albumID)
                    continue
                }
                content.albums[albumID] = album
                if let albumFiles {
                    // Real playback: the files on disk are the track list; no files, no pretending.
                    do {
                        let resolved = try await Task.detached(priority: .userInitiated) { try albumFiles.resolve(album) }.value
                        content.trackLists[albumID] = resolved.tracks
                        content.files[albumID] = resolved.files
                        // The files' R128 album gain (tags win, as REPLAYGAIN_* tags do in the
                        // player), else a measured one; with neither the album plays at its
                        // REPLAYGAIN_* tags' gain, or as it is.
                        let gain = try? await Task.detached(priority: .userInitiated) {
                            try database.albumGain(albumID: albumID, directory: resolved.directory)
                        }.value
                        content.gains[albumID] = resolved.r128GainDb ?? gain?.gainDb
                    } catch let error as AudioPlaybackError {
                        content.withoutFiles[albumID] = error
                    }
                    continue
                }
                content.trackLists[albumID] = stored.isEmpty ? try await lookUpTracks(of: album) : stored
            } catch {
                Log.debug("no track list for album \(albumID): \(Self.describe(error))")
                content.withoutTrackList.append(albumID)
            }
        }
        return content
    }

    private func lookUpTracks(of album: Album) async throws -> [Track] {
        let tracks = try await trackLists.lookup(album)
        guard let albumID = album.id, !tracks.isEmpty else {
            throw PlaybackError.noTrackList(albumID: album.id ?? -1)
        }
        // Keep what the lookup found so the next play is offline; failing to store it costs nothing now.
        let database = self.database
        do {
            try await Task.detached { try database.replaceTracks(tracks, forAlbum: albumID) }.value
        } catch {
            Log.error("could not store the track list of album \(albumID): \(Self.describe(error))")
        }
        return tracks.map { var track = $0; track.albumID = albumID; return track }
    }

    /// Fills the manager's batch and records the albums that will be skipped.
    func apply(_ content: BatchContent, to manager: inout AlbumQueueManager) {
        albums.merge(content.albums) { _, new in new }
        lastWithoutFiles = content.withoutFiles.values.first
        manager.fill(trackLists: content.trackLists, files: content.files, gains: content.gains)
        let skipped = manager.skippedAlbumIDs
        let batch = manager.batchAlbumIDs
        // Albums after the one asked for are skipped without a message: a message belongs to the
        // request that caused it, and would stay under another album while it plays.
        state.update {
            $0.batchAlbumIDs = batch
            $0.skippedAlbumIDs = skipped
        }
        for albumID in skipped {
            Log.debug("album \(albumID) skipped: \(content.withoutFiles[albumID]?.message ?? PlaybackError.noTrackList(albumID: albumID).message)")
        }
    }

    // MARK: - Playing

    /// Starts a filled batch at `index`; a batch with nothing playable moves on to the next one.
    func begin(_ manager: AlbumQueueManager, at index: Int, session: Int) async {
        var manager = manager
        var index = index
        while manager.entries.isEmpty {
            guard manager.advanceToNextBatch() else {
                fail(lastWithoutFiles ?? PlaybackError.nothingToPlay)
                return
            }
            let content = await loadBatch(manager.batchAlbumIDs)
            guard session == self.session else { return }
            apply(content, to: &manager)
            index = 0
        }
        let change = manager.start(at: index)
        self.manager = manager
        await startPlayer(entries: manager.entries, at: index, session: session)
        if change.shouldPrefetchNextBatch, session == self.session { startPrefetch() }
    }

    /// Loads the queue into the player and plays; "now playing" is published only after `play()`
    /// returned, so the playback bar never shows an album that is not playing yet.
    func startPlayer(entries: [QueueEntry], at index: Int, session: Int) async {
        isStarting = true
        do {
            try await player.load(entries, startingAt: index)
            try await player.play()
        } catch {
            isStarting = false
            if session == self.session { fail(error) }
            return
        }
        isStarting = false
        guard session == self.session else { return }
        publish(player.state.value)
        state.update { $0.isPreparingQueue = false }
    }

    // MARK: - Following the player

    func playerDidChange(_ playerState: PlayerState) {
        guard var manager, !isStarting else { return }
        if playerState.finishedQueue {
            scheduleNextBatch()
            return
        }
        if let entry = playerState.currentEntry, entry.id != manager.currentEntry?.id {
            let change = manager.trackDidChange(to: entry, checkBackward: true)
            self.manager = manager
            guard change.found else {
                // The player wrapped to the start of the batch: the batch is over, not restarted.
                scheduleNextBatch()
                return
            }
            if change.shouldPrefetchNextBatch { startPrefetch() }
        }
        publish(playerState)
    }

    private func publish(_ playerState: PlayerState) {
        let entry = manager?.currentEntry
        let album = entry.flatMap { albums[$0.albumID] }
        state.update {
            $0.status = playerState.status
            $0.positionMs = playerState.positionMs
            $0.durationMs = playerState.durationMs
            $0.nowPlayingAlbum = album
            $0.nowPlayingTrack = entry?.track
            if let problem = playerState.problem, problem != lastPlayerProblem { $0.message = problem }
        }
        lastPlayerProblem = playerState.problem
    }

    private func startPrefetch() {
        guard prefetch == nil, let ids = manager?.nextBatchAlbumIDs, !ids.isEmpty else { return }
        prefetch = Task { [weak self] in
            guard let self else { return BatchContent(albumIDs: ids) }
            return await self.loadBatch(ids)
        }
    }

    private func scheduleNextBatch() {
        guard advanceTask == nil else { return }
        let session = self.session
        advanceTask = Task { [weak self] in
            await self?.playNextBatch(session: session)
            // A newer session has already replaced (or cleared) this task; leave its task alone.
            if self?.session == session { self?.advanceTask = nil }
        }
    }

    private func playNextBatch(session: Int) async {
        guard var manager, session == self.session else { return }
        guard manager.advanceToNextBatch() else {
            // The end of the grid: playback is over. A player that wrapped is still going; stop it.
            endSession()
            if player.state.value.status != .stopped { await player.stop() }
            state.update { $0.status = .stopped; $0.positionMs = 0 }
            return
        }
        state.update { $0.isPreparingQueue = true }
        var content = await prefetch?.value
        prefetch = nil
        if content?.albumIDs != manager.batchAlbumIDs {
            content = await loadBatch(manager.batchAlbumIDs)
        }
        guard session == self.session, let content else { return }
        apply(content, to: &manager)
        await begin(manager, at: 0, session: session)
    }
}
