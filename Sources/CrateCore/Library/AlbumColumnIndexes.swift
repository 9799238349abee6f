import GRDB

/// Column positions of an album query, resolved once per statement.
struct AlbumColumnIndexes {
    let id, mbReleaseID, mbReleaseGroupID, title, artist, artistSortKey, year, genres, label: Int
    let artworkStatus, artworkPath, thumbnailPath, tracksStatus, createdAt, lastScannedAt, scanCount: Int

    init(names: [String]) {
        func index(_ name: String) -> Int { names.firstIndex(of: name) ?? 0 }
        id = index("id"); mbReleaseID = index("mbReleaseId"); mbReleaseGroupID = index("mbReleaseGroupId")
        title = index("title"); artist = index("artist"); artistSortKey = index("artistSortKey")
        year = index("year"); genres = index("genres"); label = index("label")
        artworkStatus = index("artworkStatus"); artworkPath = index("artworkPath"); thumbnailPath = index("thumbnailPath")
        tracksStatus = index("tracksStatus")
        createdAt = index("createdAt"); lastScannedAt = index("lastScannedAt"); scanCount = index("scanCount")
    }

    func album(from row: Row) -> Album {
        Album(
            id: row[id], musicBrainzReleaseID: row[mbReleaseID], musicBrainzReleaseGroupID: row[mbReleaseGroupID],
            title: row[title], artist: row[artist], year: row[year], genres: JSONList.decode(row[genres]), label: row[label],
            artworkStatus: ArtworkStatus(rawValue: row[artworkStatus] ?? "") ?? .pending,
            artworkPath: row[artworkPath], thumbnailPath: row[thumbnailPath],
            tracksStatus: TrackListStatus(rawValue: row[tracksStatus] ?? "") ?? .pending, createdAt: row[createdAt],
            artistSortKey: row[artistSortKey])
    }
}
