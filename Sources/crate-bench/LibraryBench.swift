import CrateCore
import Foundation

/// `crate-bench library DATA_DIR`: the queries a big crate makes at start (the grid's albums,
/// the first history page, a page deep in the history), medians of `runs`.
func benchLibrary(dataDirectory: String, runs: Int) throws {
    let url = URL(fileURLWithPath: dataDirectory)
    let database = try AppDatabase.open(paths: CratePaths(dataDirectory: url, cacheDirectory: url, configDirectory: url, stateDirectory: url))
    var albumCount = 0
    let grid = try (0..<runs).map { _ in try milliseconds { albumCount = try database.albums(sortedBy: .recentlyScanned).count } }
    let firstPage = try (0..<runs).map { _ in try milliseconds { _ = try database.history(limit: 200) } }
    let middle = try database.history(limit: 1, offset: max(0, try database.counts().scans / 2)).first?.scan
    let deepPage = try (0..<runs).map { _ in try milliseconds { _ = try database.history(limit: 200, after: middle) } }
    print(String(format: "library: %d albums for the grid %.1f ms; history first page %.2f ms; page half-way down %.2f ms (medians of %d)",
                 albumCount, median(grid), median(firstPage), median(deepPage), runs))
}
