import Foundation
@testable import CrateCore

/// Builders shared by the playback tests.
enum PlaybackFixtures {
    /// Titles of the files that started playing, in order (from the log), a title repeated at
    /// once counted once (a player that was restarted plays its track again).
    @MainActor
    static func played(_ log: PlaybackLog) throws -> [String] {
        try decode(log.lines).filter { $0.state == "playing" }.compactMap { $0.track?.title }
            .reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
    }

    /// Waits until the store has nothing playing and nothing to start; false after a ceiling
    /// that only catches a hang.
    @MainActor
    static func waitUntilDone(_ store: PlaybackStore, player: any Player, ceiling: Duration = .seconds(180)) async -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < ceiling {
            await store.settle()
            if player.state.value.status == .stopped, !store.state.value.isPreparingQueue { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// A track list: (disc, position, title, duration in ms).
    typealias Spec = [(disc: Int, position: Int, title: String, ms: Int)]

    /// An album's tracks on one disc, each `ms` long.
    static func tracks(_ titles: [String], ms: Int = 1_000, albumID: Int64 = 0) -> [Track] {
        titles.enumerated().map { Track(albumID: albumID, disc: 1, position: $0.offset + 1, title: $0.element, durationMs: ms) }
    }

    /// Track lists for album ids, each with `count` tracks titled "A<id>-T<n>".
    static func trackLists(_ ids: [Int64], count: Int = 2) -> [Int64: [Track]] {
        Dictionary(uniqueKeysWithValues: ids.map { id in
            (id, tracks((1...count).map { "A\(id)-T\($0)" }, albumID: id))
        })
    }

    static func grid(_ count: Int, tapped: Int) -> GridContext {
        GridContext(albumIDs: (1...Int64(count)).map { $0 }, tappedIndex: tapped)!
    }

    /// An in-memory library with one album per spec; an empty spec means "no track list".
    static func library(_ specs: [Spec]) throws -> (AppDatabase, [Int64]) {
        let database = try AppDatabase.inMemory()
        var ids: [Int64] = []
        for (n, spec) in specs.enumerated() {
            let entry = try database.saveScan(of: Album(title: "Album \(n + 1)", artist: "Artist \(n + 1)"), method: .manual)
            guard let id = entry.album.id else { throw CrateError.notFound("Saved album id") }
            let tracks = spec.map { Track(albumID: id, disc: $0.disc, position: $0.position, title: $0.title, durationMs: $0.ms) }
            try database.replaceTracks(tracks, forAlbum: id)
            ids.append(id)
        }
        return (database, ids)
    }

    /// A one-disc spec of `count` one-second tracks.
    static func spec(_ count: Int, prefix: String = "T") -> Spec {
        (1...count).map { (disc: 1, position: $0, title: "\(prefix)\($0)", ms: 1_000) }
    }

    /// Decoded log lines.
    static func decode(_ lines: [String]) throws -> [PlaybackLogLine] {
        try lines.map { try JSONDecoder().decode(PlaybackLogLine.self, from: Data($0.utf8)) }
    }

    /// Album ids in the order they started playing (consecutive repeats collapsed).
    static func playedAlbums(_ lines: [String]) throws -> [Int64] {
        var order: [Int64] = []
        for line in try decode(lines) where line.state == "playing" {
            if let id = line.album_id, order.last != id { order.append(id) }
        }
        return order
    }

    /// (album, disc, position) of every track that started playing, in order.
    static func playedTracks(_ lines: [String]) throws -> [String] {
        try decode(lines).filter { $0.state == "playing" }.compactMap { line in
            line.track.map { "\(line.album_id ?? -1):\($0.disc)-\($0.position)" }
        }.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }
}
