import GRDB

/// The scans of one album, newest first.
public struct AlbumScansRequest: ReadRequest {
    public var albumID: Int64

    public init(albumID: Int64) {
        self.albumID = albumID
    }

    public func fetch(_ db: Database) throws -> [Scan] {
        try Scan.filter(Scan.Columns.albumID == albumID).order(Scan.Columns.scannedAt.desc).fetchAll(db)
    }
}
