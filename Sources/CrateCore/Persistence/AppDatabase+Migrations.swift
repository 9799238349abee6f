import GRDB

extension AppDatabase {
    /// Named migrations. Never edit a shipped migration: add `v2`, `v3`, … instead.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1") { db in
            try db.create(table: "album") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("mbReleaseId", .text).unique()
                t.column("mbReleaseGroupId", .text)
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("artistSortKey", .text).notNull().indexed()
                t.column("year", .text)
                t.column("genres", .text).notNull().defaults(to: "[]")
                t.column("label", .text)
                t.column("artworkStatus", .text).notNull().defaults(to: ArtworkStatus.pending.rawValue)
                t.column("artworkPath", .text)
                t.column("thumbnailPath", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "scan") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("album", onDelete: .cascade).notNull()
                t.column("scannedAt", .datetime).notNull().indexed()
                t.column("method", .text).notNull()
                t.column("confidence", .double)
            }
            try db.create(table: "review") { t in
                t.primaryKey("key", .text)
                t.column("summary", .text).notNull()
                t.column("bullets", .text).notNull()
                t.column("rating", .double).notNull()
                t.column("recommendation", .text).notNull()
                t.column("tier", .integer).notNull()
                t.column("keyTracks", .text).notNull()
                t.column("provider", .text).notNull()
                t.column("model", .text).notNull()
                t.column("promptVersion", .text).notNull()
                t.column("usedSearch", .boolean).notNull()
                t.column("generatedAt", .datetime).notNull()
            }
            try db.create(table: "track") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("album", onDelete: .cascade).notNull()
                t.column("disc", .integer).notNull()
                t.column("position", .integer).notNull()
                t.column("number", .text)
                t.column("title", .text).notNull()
                t.column("durationMs", .integer)
                t.column("recordingId", .text)
                t.uniqueKey(["albumId", "disc", "position"])
            }
        }

        migrator.registerMigration("v2-cover-hashes") { db in
            // Tier-0 hashes of each album's artwork; the photo itself is never stored.
            try db.create(table: "cover_hash") { t in
                t.primaryKey("albumId", .integer).references("album", onDelete: .cascade)
                t.column("phash", .integer)
                t.column("dhash", .integer)
                t.column("dct256", .blob)
            }
        }

        // Provider calls, for the usage meter.
        migrator.registerMigration("v3-usage") { db in
            try db.create(table: "usage") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .datetime).notNull().indexed()
                t.column("provider", .text).notNull()
                t.column("model", .text).notNull()
                t.column("purpose", .text).notNull()
                t.column("inputTokens", .integer)
                t.column("outputTokens", .integer)
                t.column("durationMs", .integer).notNull()
                t.column("success", .boolean).notNull()
                t.column("usedSearch", .boolean).notNull()
                t.column("errorCode", .text)
            }
        }

        // Full-text search over the crate (Ctrl+F): artist, title, label and genres.
        migrator.registerMigration("v4-search") { db in
            try db.create(virtualTable: "album_fts", using: FTS5()) { t in
                t.synchronize(withTable: "album")
                t.tokenizer = .unicode61()
                t.column("title")
                t.column("artist")
                t.column("label")
                t.column("genres")
            }
            try db.create(index: "scan_on_albumId_scannedAt", on: "scan", columns: ["albumId", "scannedAt"])
        }

        // The bulk-scan queue (docs/decisions/0006-bulk-scan-queue.md): photos waiting to be scanned survive
        // a kill; an item becomes `done` in the same transaction that saves its scan.
        migrator.registerMigration("v5-batch") { db in
            try db.create(table: "batch_item") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull()
                t.column("state", .text).notNull().defaults(to: BatchItemState.pending.rawValue)
                    .check { ["pending", "done", "failed"].contains($0) }
                t.column("scanId", .integer).references("scan", onDelete: .setNull)
                t.column("error", .text)
                // Times a runner has started on the item; a photo that kills the scanner every time
                // is failed after a few tries instead of being resumed forever.
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("addedAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            // A photo is queued at most once while it waits; it may be queued again once finished.
            try db.create(index: "batch_item_pending_path", on: "batch_item", columns: ["path"], options: .unique,
                          condition: Column("state") == BatchItemState.pending.rawValue)
            try db.create(index: "batch_item_on_state_id", on: "batch_item", columns: ["state", "id"])
        }

        // Artwork paths relative to the artwork cache directory, so moving the cache keeps them.
        // Done here rather than at open time with `CratePaths`: a library whose cache already
        // moved still has the old absolute paths, which no current directory would match. The
        // cache has one layout (files directly in `…/artwork/`), so the file name is enough.
        migrator.registerMigration("v6-relative-artwork-paths") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, artworkPath, thumbnailPath FROM album WHERE artworkPath LIKE '/%' OR thumbnailPath LIKE '/%'")
            for row in rows {
                let artwork: String? = row["artworkPath"]
                let thumbnail: String? = row["thumbnailPath"]
                try db.execute(sql: "UPDATE album SET artworkPath = ?, thumbnailPath = ? WHERE id = ?", arguments: [
                    artwork.map(ArtworkCache.storedPath(forLegacyPath:)), thumbnail.map(ArtworkCache.storedPath(forLegacyPath:)), row["id"] as Int64,
                ])
            }
        }

        // "Not this album?" runners-up, kept with their scan so the choice survives a restart.
        // A table rather than a JSON column on `scan`: rows go with their scan (cascade), the
        // scan rows the history reads stay as they are, and the columns are typed.
        migrator.registerMigration("v7-scan-candidates") { db in
            try db.create(table: "scan_candidate") { t in
                t.column("scanId", .integer).notNull().references("scan", onDelete: .cascade)
                t.column("rank", .integer).notNull()
                t.primaryKey(["scanId", "rank"])
                t.column("mbReleaseId", .text)
                t.column("mbReleaseGroupId", .text)
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("year", .text)
                t.column("label", .text)
                t.column("score", .double)
            }
        }

        // Leases on queued photos (docs/decisions/0006-bulk-scan-queue.md): the process scanning a
        // photo (`leaseOwner`, see `BatchLeaseOwner`) and until when (`leaseExpiresAt`, seconds
        // since 1970), so two processes never scan one photo and a killed one's photo is retried.
        migrator.registerMigration("v8-batch-item-leases") { db in
            try db.alter(table: "batch_item") { t in
                t.add(column: "leaseOwner", .text)
                t.add(column: "leaseExpiresAt", .double)
            }
        }

        // Track lists and artwork as pending work (docs/reliability.md #20, #21): the scan's save
        // records them `pending`, a repair pass in any process claims an album (`detailsClaimedBy`
        // = its pid, with a time so a hung claim expires), and failed fetches are counted so an
        // album is given up on (`failed`) after a few tries instead of being retried forever.
        // Existing albums with tracks are `ok`; those without a release have nothing to fetch.
        migrator.registerMigration("v9-pending-album-details") { db in
            try db.alter(table: "album") { t in
                t.add(column: "tracksStatus", .text).notNull().defaults(to: TrackListStatus.pending.rawValue)
                t.add(column: "tracksAttempts", .integer).notNull().defaults(to: 0)
                t.add(column: "tracksError", .text)
                t.add(column: "artworkAttempts", .integer).notNull().defaults(to: 0)
                t.add(column: "artworkError", .text)
                t.add(column: "detailsClaimedBy", .integer)
                t.add(column: "detailsClaimedAt", .datetime)
            }
            try db.execute(sql: "UPDATE album SET tracksStatus = ? WHERE EXISTS (SELECT 1 FROM track WHERE track.albumId = album.id)",
                           arguments: [TrackListStatus.ok.rawValue])
            try db.execute(sql: "UPDATE album SET tracksStatus = ? WHERE tracksStatus = ? AND mbReleaseId IS NULL",
                           arguments: [TrackListStatus.unavailable.rawValue, TrackListStatus.pending.rawValue])
            // The repair pass reads only the albums with work left.
            try db.execute(sql: """
                CREATE INDEX album_pending_details ON album(id)
                WHERE tracksStatus IN ('pending', 'failed') OR artworkStatus IN ('pending', 'failed')
                """)
        }

        // Paid identifications, keyed by the exact photo sent and who answered, kept a day: a scan
        // killed between the provider's answer and the save, or the same photo scanned again
        // before its artwork (and so its tier-0 hash) arrived, never pays twice
        // (docs/reliability.md #19).
        migrator.registerMigration("v10-identification-journal") { db in
            try db.create(table: "identification_journal") { t in
                t.column("photoDigest", .text).notNull()
                t.column("identity", .text).notNull()
                t.primaryKey(["photoDigest", "identity"])
                t.column("answer", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }

        // The music folder index: one row per audio file, kept up to date by mtime + size, with what
        // its tags (or folder names) say; unreadable files are rows too, so they are reported.
        migrator.registerMigration("v11-music-folder-index") { db in
            try db.create(table: "music_file") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull().unique()
                t.column("mtimeNs", .integer).notNull()
                t.column("size", .integer).notNull()
                t.column("status", .text).notNull()
                t.column("problem", .text)
                t.column("title", .text).notNull()
                t.column("artist", .text)
                t.column("albumArtist", .text).notNull()
                t.column("album", .text).notNull()
                t.column("disc", .integer).notNull()
                t.column("track", .integer)
                t.column("durationMs", .integer)
                t.column("mbAlbumId", .text).indexed()
                t.column("mbReleaseGroupId", .text).indexed()
                t.column("mbTrackId", .text)
                t.column("albumKey", .text).notNull().indexed()
                t.column("groupKey", .text).notNull().indexed()
                t.column("tagged", .boolean).notNull()
            }
        }

        // The Crate Wall: the last wall shown (its tiles and dial, so it appears at once on launch
        // and offline), favourites and dislikes of release groups (one row each, so they are
        // mutually exclusive), and the outbox of recording feedback for ListenBrainz, leased
        // like the batch queue so several processes never send one row twice.
        migrator.registerMigration("v12-crate-wall") { db in
            try db.create(table: "wall_state") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("dial", .text).notNull()
                t.column("builtAt", .datetime)
                t.column("unavailable", .text).notNull().defaults(to: "[]")
            }
            try db.create(table: "wall_item") { t in
                t.primaryKey("position", .integer)
                t.column("signal", .text).notNull()
                t.column("releaseGroupId", .text).notNull()
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("releaseId", .text)
                t.column("artUrl", .text)
                // The cached 250 px art (a file name in the artwork cache), or nil until fetched.
                t.column("artworkPath", .text)
                t.column("artworkStatus", .text).notNull().defaults(to: ArtworkStatus.pending.rawValue)
            }
            try db.create(table: "album_rating") { t in
                t.primaryKey("releaseGroupId", .text)
                t.column("rating", .integer).notNull().check { [1, -1].contains($0) }
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("releaseId", .text)
                t.column("ratedAt", .datetime).notNull()
            }
            try db.create(table: "feedback_outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("releaseGroupId", .text).notNull()
                t.column("releaseId", .text)
                t.column("score", .integer).notNull().check { [1, 0, -1].contains($0) }
                t.column("state", .text).notNull().defaults(to: "pending")
                    .check { ["pending", "sent", "failed", "superseded"].contains($0) }
                // The album's recordings once found (JSON array), and those already sent.
                t.column("recordings", .text)
                t.column("sentRecordings", .text).notNull().defaults(to: "[]")
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("nextAttemptAt", .double).notNull().defaults(to: 0)
                t.column("leaseOwner", .text)
                t.column("leaseExpiresAt", .double)
                t.column("error", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(index: "feedback_outbox_on_state_group", on: "feedback_outbox", columns: ["state", "releaseGroupId", "id"])
            // Recording → album mappings from ListenBrainz, so recommendations need one round trip
            // once their recordings have been seen.
            try db.create(table: "wall_recording_map") { t in
                t.primaryKey("recordingId", .text)
                t.column("releaseGroupId", .text).notNull()
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("releaseId", .text)
                t.column("caaId", .integer)
                t.column("caaReleaseId", .text)
            }
        }

        // Artist pages (docs/decisions/0014-artist-catalogue-cache.md): each artist's albums and
        // EPs from MusicBrainz, saved page by page so a second visit is instant and works
        // offline, and an interrupted fetch resumes at `nextOffset`. A fetch started at offset 0
        // at `runStartedAt` ends by removing the rows it did not see again (`seenAt` older).
        migrator.registerMigration("v13-artist-catalogue") { db in
            try db.create(table: "artist_catalogue") { t in
                t.primaryKey("artistId", .text)
                t.column("name", .text)
                t.column("disambiguation", .text)
                t.column("total", .integer).notNull().defaults(to: 0)
                t.column("nextOffset", .integer).notNull().defaults(to: 0)
                t.column("complete", .boolean).notNull().defaults(to: false)
                t.column("runStartedAt", .double).notNull()
                t.column("fetchedAt", .double)
            }
            try db.create(table: "artist_release_group") { t in
                t.column("artistId", .text).notNull().references("artist_catalogue", onDelete: .cascade)
                t.column("id", .text).notNull()
                t.primaryKey(["artistId", "id"])
                t.column("title", .text).notNull()
                t.column("primaryType", .text)
                t.column("secondaryTypes", .text).notNull().defaults(to: "[]")
                t.column("firstReleaseDate", .text)
                t.column("seenAt", .double).notNull()
            }
        }

        // What a music-folder scan last saw in each directory: the directory's mtime, the names of
        // its audio files, playlists and sub-directories, and a digest of those files' mtimes and
        // sizes. A directory whose mtime and digest are unchanged is not read again.
        migrator.registerMigration("v14-music-directory-cache") { db in
            try db.create(table: "music_dir") { t in
                t.primaryKey("path", .text)
                t.column("mtimeNs", .integer).notNull()
                t.column("entries", .blob).notNull()
                t.column("digest", .integer).notNull()
            }
        }

        // The usage meter by tier (see the usage meter decision in docs/decisions): one row per
        // scan, under the tier that answered it (`local`, `vision`, `search`), written in the
        // scan's own transaction, and the monthly budget notices the window has already shown.
        // Rows are only ever inserted, so processes that scan at once never lose a count.
        migrator.registerMigration("v15-usage-scans-by-tier") { db in
            try db.create(table: "usage_scan") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .datetime).notNull().indexed()
                t.column("tier", .text).notNull()
                t.column("found", .boolean).notNull()
            }
            try db.create(table: "usage_notice") { t in
                t.column("month", .text).notNull()
                t.column("level", .text).notNull()
                t.primaryKey(["month", "level"])
                t.column("shownAt", .datetime).notNull()
            }
        }

        migrator.registerMigration("v16-favourite-artists") { db in
            // The rated album's artist MBIDs, space-separated: NULL until known, "" when the
            // album has none. Favourites' artists seed the similar-artist recommendations.
            try db.alter(table: "album_rating") { t in
                t.add(column: "artistMbids", .text)
            }
        }

        // The grid pages the crate by last scan without sorting it: the last scan time is kept on
        // the album (by triggers, whoever writes the scan) and indexed, so the first page of
        // 100 000 albums is read off the index like the first page of 1 000.
        migrator.registerMigration("v17-album-last-scan-index") { db in
            try db.execute(sql: """
                ALTER TABLE album ADD COLUMN lastScanAt DATETIME;
                UPDATE album SET lastScanAt = (SELECT MAX(scannedAt) FROM scan WHERE scan.albumId = album.id);
                CREATE INDEX album_on_lastScanAt_id ON album(lastScanAt, id);
                CREATE TRIGGER scan_last_scan_insert AFTER INSERT ON scan BEGIN
                    UPDATE album SET lastScanAt = (SELECT MAX(scannedAt) FROM scan WHERE albumId = NEW.albumId) WHERE id = NEW.albumId;
                END;
                CREATE TRIGGER scan_last_scan_delete AFTER DELETE ON scan BEGIN
                    UPDATE album SET lastScanAt = (SELECT MAX(scannedAt) FROM scan WHERE albumId = OLD.albumId) WHERE id = OLD.albumId;
                END;
                CREATE TRIGGER scan_last_scan_update AFTER UPDATE OF albumId, scannedAt ON scan BEGIN
                    UPDATE album SET lastScanAt = (SELECT MAX(scannedAt) FROM scan WHERE albumId = album.id) WHERE id IN (OLD.albumId, NEW.albumId);
                END;
                """)
        }

        // The Discogs link of an identified album: the release page and the match score, or
        // "no match", or "try again after" when Discogs could not be asked (offline, token
        // refused, rate limited). Only these columns: no marketplace or price field has a place.
        migrator.registerMigration("v18-discogs-links") { db in
            try db.create(table: "discogs_link") { t in
                t.primaryKey("albumId", .integer).references("album", onDelete: .cascade)
                t.column("status", .text).notNull()  // linked | none | retry
                t.column("releaseId", .integer)
                t.column("url", .text)
                t.column("score", .double)
                t.column("title", .text)
                t.column("year", .text)
                t.column("checkedAt", .datetime).notNull()
                t.column("retryAfter", .datetime)
            }
        }

        // Records: the exact release's facts (one row per album once looked up; an album with a
        // release id and no row is still to look up, which `crate repair` does at MusicBrainz's
        // pace), the copies the user owns, and whether they want the album.
        migrator.registerMigration("v19-records") { db in
            try db.create(table: "release_facts") { t in
                t.primaryKey("albumId", .integer).references("album", onDelete: .cascade)
                t.column("releaseId", .text)
                t.column("barcode", .text)
                // The barcode as 13 digits (a 12-digit UPC with its leading 0): found offline by a scan.
                t.column("barcodeKey", .text).indexed()
                t.column("catalogNumbers", .text).notNull().defaults(to: "[]")
                t.column("labels", .text).notNull().defaults(to: "[]")
                t.column("country", .text)
                t.column("date", .text)
                t.column("packaging", .text)
                t.column("status", .text)
                t.column("media", .text).notNull().defaults(to: "[]")
                // The lookup answered that the release is gone (404): nothing more to fetch.
                t.column("missing", .boolean).notNull().defaults(to: false)
                t.column("fetchedAt", .datetime).notNull()
            }
            try db.create(table: "album_copy") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("album", onDelete: .cascade).notNull()
                t.column("format", .text)
                t.column("releaseId", .text)
                t.column("note", .text)
                t.column("addedAt", .datetime).notNull()
            }
            try db.alter(table: "album") { t in
                t.add(column: "wantedAt", .datetime)
            }
            try db.create(index: "album_wanted", on: "album", columns: ["wantedAt"], condition: Column("wantedAt") != nil)
        }

        // Album, review and barcode keys as `MusicText` folds them ("&" is "and", a leading "The" and
        // Discogs' "(2)" do not count; barcodes as GTIN-13): stored keys are recomputed, not left to a rescan.
        migrator.registerMigration("v20-music-text-keys") { db in
            try rekeyMusicText(db)
        }

        registerWatchedPhotosMigration(&migrator)
        // Listens for ListenBrainz and Last.fm: a persisted outbox, one row per service and
        // listen, unique on (service, track identity, listened-at) so a listen is never queued twice.
        migrator.registerMigration("v22-listens") { db in
            try createListenOutbox(db)
        }
        // The Discogs account: the token's user, each release's status as last read, and the
        // outbox of additions (docs/decisions/0044-discogs-account-and-outbox.md).
        migrator.registerMigration("v23-discogs-outbox") { db in
            try createDiscogsAccountTables(db)
        }
        // The Discogs import: staged records, each one's search stage and outcome, and a lease
        // (docs/decisions/0045-discogs-import.md).
        migrator.registerMigration("v24-discogs-import") { db in
            try createDiscogsImport(db)
        }
        // The MusicBrainz collection the owned records are kept in: what was in it and in the crate
        // at the last sync (the base of a three-way merge), the removals the user confirmed, and
        // when each collection was last synced.
        migrator.registerMigration("v25-musicbrainz-collection") { db in
            try createMusicBrainzCollectionLedger(db)
        }
        // Album gains measured by `crate music analyze`, kept here, never written into the files.
        migrator.registerMigration("v26-replaygain") { db in
            try createAlbumGain(db)
        }
        // When a Last.fm request that may have delivered a listen started and its answer is not
        // known yet: the next pass asks Last.fm before sending again
        // (docs/decisions/0042-listens-and-the-turntable.md).
        migrator.registerMigration("v27-listen-send-marks") { db in
            try addListenSendMarks(db)
        }
        // Each indexed file's R128_ALBUM_GAIN (Opus), so the player levels such albums without
        // `crate music analyze`; files that may carry one are read again at the next scan.
        migrator.registerMigration("v28-music-file-r128-gain") { db in
            try addMusicFileR128Gain(db)
        }

        return migrator
    }()
}
