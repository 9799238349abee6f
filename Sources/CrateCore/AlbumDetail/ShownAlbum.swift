/// What the album pane shows of a crate album: the database's answer, which tracks have no file
/// in the music folder, and the cached review.
struct ShownAlbum: Sendable {
    var albumID: Int64
    var read: AlbumDetailRequest.Answer
    var withoutFiles: Set<TrackSlot> = []
    var review: Review?

    /// Reads it (off the main actor). `files` is nil when playback needs no files (the log
    /// player); `review` finds a cached review.
    static func read(albumID: Int64, from database: AppDatabase, files: AlbumFiles?,
                     review: AlbumDetailStore.ReviewLookup) throws -> ShownAlbum {
        var shown = ShownAlbum(albumID: albumID, read: try database.read(AlbumDetailRequest(albumID: albumID)))
        guard let album = shown.read.album else { return shown }
        if let files {
            let slots = Set(shown.read.tracks.map { TrackSlot(disc: $0.disc, position: $0.position) })
            do {
                let found = try files.resolve(album)
                // No track list, but files in the music folder: those are what Play plays.
                if shown.read.tracks.isEmpty { shown.read.tracks = found.tracks } else { shown.withoutFiles = slots.subtracting(found.files.keys) }
            } catch AudioPlaybackError.notInMusicFolder {
                shown.withoutFiles = slots
            } catch {
                // Two candidate folders, or an unreadable index: Play says which; nothing is marked.
            }
        }
        shown.review = try review(album)
        return shown
    }
}
