import Foundation
import CrateCore

/// A scratch directory removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("crate-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var paths: CratePaths {
        CratePaths(
            dataDirectory: url.appendingPathComponent("data"),
            cacheDirectory: url.appendingPathComponent("cache"),
            configDirectory: url.appendingPathComponent("config"),
            stateDirectory: url.appendingPathComponent("state")
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

extension Album {
    static func sample(_ title: String = "Rumours", artist: String = "Fleetwood Mac", mbid: String? = nil) -> Album {
        Album(musicBrainzReleaseID: mbid, title: title, artist: artist, year: "1977", genres: ["rock", "pop"], label: "Warner Bros. Records")
    }
}
