import GRDB

/// The dial the user chose last (the default before any wall).
public struct WallDialRequest: ReadRequest {
    public init() {}

    public func fetch(_ db: Database) throws -> CrateDialPosition {
        try String.fetchOne(db, sql: "SELECT dial FROM wall_state WHERE id = 1").flatMap(CrateDialPosition.init(rawValue:)) ?? .standard
    }
}
