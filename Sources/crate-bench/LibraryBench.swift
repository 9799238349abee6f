import CrateCore
import Foundation

/// `crate-bench library DATA_DIR`: the queries a big crate makes at start (what the grid reads:
/// its listing and first page; the first history page, a page deep in the history), medians of
/// `runs`, with the old whole-crate grid query and an artist-sorted listing beside them.
func benchLibrary(dataDirectory: String, runs: Int) throws {
    let url = URL(fileURLWithPath: dataDirectory)
    let database = try AppDatabase.open(paths: CratePaths(dataDirectory: url, cacheDirectory: url, configDirectory: url, stateDirectory: url))
    var albumCount = 0
    let whole = try (0..<runs).map { _ in try milliseconds { albumCount = try database.read(AllAlbumsRequest(sortedBy: .recentlyScanned)).count } }
    let grid = try (0..<runs).map { _ in
        try milliseconds { _ = try database.read(AlbumPageRequest(of: database.read(AlbumListingRequest(sortedBy: .recentlyScanned)), offset: 0, limit: LibraryStore.firstPageSize)) }
    }
    let byArtist = try (0..<runs).map { _ in
        try milliseconds { _ = try database.read(AlbumPageRequest(of: database.read(AlbumListingRequest(sortedBy: .artist)), offset: 0, limit: LibraryStore.firstPageSize)) }
    }
    let firstPage = try (0..<runs).map { _ in try milliseconds { _ = try database.read(HistoryPageRequest(limit: 200)) } }
    let middle = try database.read(HistoryPageRequest(limit: 1, offset: max(0, try database.counts().scans / 2))).first?.scan
    let deepPage = try (0..<runs).map { _ in try milliseconds { _ = try database.read(HistoryPageRequest(limit: 200, after: middle)) } }
    print(String(format: "library: %d albums; grid listing + first page %.2f ms (by artist %.1f ms; every album read, as before, %.1f ms); history first page %.2f ms; page half-way down %.2f ms (medians of %d)",
                 albumCount, median(grid), median(byArtist), median(whole), median(firstPage), median(deepPage), runs))
}
