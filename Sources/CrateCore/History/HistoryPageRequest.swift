import GRDB

/// A page of the scan history: scans newest first (the larger id first among equal times), each
/// with its album.
///
/// Pass the last entry of the previous page as `after` to read the next one: a keyset query
/// costs the same at scan 50 000 as at scan 1, where OFFSET walks every row before it.
public struct HistoryPageRequest: ReadRequest {
    public var limit: Int
    public var offset: Int
    public var after: Scan?

    public init(limit: Int = 200, offset: Int = 0, after: Scan? = nil) {
        self.limit = limit
        self.offset = offset
        self.after = after
    }

    public func fetch(_ db: Database) throws -> [HistoryEntry] {
        var request = Scan
            .including(required: Scan.album)
            .order(Scan.Columns.scannedAt.desc, Scan.Columns.id.desc)
            .limit(limit, offset: offset)
        if let after, let lastID = after.id {
            request = request.filter(
                Scan.Columns.scannedAt < after.scannedAt
                    || (Scan.Columns.scannedAt == after.scannedAt && Scan.Columns.id < lastID))
        }
        return try Row.fetchAll(db, request).map { row in
            guard let albumRow = row.scopes["album"] else { throw CrateError.notFound("Album row") }
            return HistoryEntry(scan: try Scan(row: row), album: try Album(row: albumRow))
        }
    }
}
