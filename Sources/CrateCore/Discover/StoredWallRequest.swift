import Foundation
import GRDB

/// The last wall, or nil when none was ever built.
public struct StoredWallRequest: ReadRequest {
    public init() {}

    public func fetch(_ db: Database) throws -> StoredWall? {
        guard let state = try Row.fetchOne(db, sql: "SELECT dial, builtAt, unavailable FROM wall_state WHERE id = 1") else { return nil }
        let dial = CrateDialPosition(rawValue: state["dial"] as String) ?? .standard
        let unavailableJSON: String = state["unavailable"]
        let unavailable = (try? JSONDecoder().decode([WallUnavailable].self, from: Data(unavailableJSON.utf8))) ?? []
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM wall_item ORDER BY position")
        let tiles = rows.compactMap(Self.tile(from:))
        return StoredWall(dial: dial, builtAt: state["builtAt"], tiles: tiles, unavailable: unavailable)
    }

    private static func tile(from row: Row) -> WallTile? {
        guard let signal = WallSignal(rawValue: row["signal"] as String), let group = MBID(validating: row["releaseGroupId"] as String) else { return nil }
        let item = WallItem(signal: signal, releaseGroupID: group, title: row["title"], artist: row["artist"],
                            releaseID: MBID(validating: row["releaseId"] as String?), artURL: (row["artUrl"] as String?).flatMap(URL.init(string:)))
        return WallTile(item: item, artworkPath: row["artworkPath"], artworkStatus: ArtworkStatus(rawValue: row["artworkStatus"] as String) ?? .pending)
    }
}
