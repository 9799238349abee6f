import Foundation
import GRDB

/// R128 album gains read from the files' tags when they are indexed
/// (docs/decisions/0046-replaygain-and-lossy-gapless.md).
extension AppDatabase {
    /// Formats whose comments may carry `R128_ALBUM_GAIN` (Opus above all; FLAC and Vorbis rarely).
    static let r128Extensions = ["opus", "ogg", "oga", "flac"]

    /// Adds the column, and makes the next scan read those files again: an indexed file is read
    /// only when its mtime or size changes, and its directory only when the cache distrusts it.
    static func addMusicFileR128Gain(_ db: Database) throws {
        try db.alter(table: "music_file") { t in
            t.add(column: "r128AlbumGainDb", .double)
        }
        let match = r128Extensions.map { _ in "lower(path) LIKE ?" }.joined(separator: " OR ")
        let patterns = StatementArguments(r128Extensions.map { "%." + $0 })
        let paths = try String.fetchAll(db, sql: "SELECT path FROM music_file WHERE \(match)", arguments: patterns)
        guard !paths.isEmpty else { return }
        try db.execute(sql: "UPDATE music_file SET mtimeNs = -1 WHERE \(match)", arguments: patterns)
        let directories = Set(paths.map(MusicIndexer.directory(of:)))
        let distrust = try db.makeStatement(sql: "UPDATE music_dir SET mtimeNs = ? WHERE path = ?")
        for directory in directories.sorted() {
            try distrust.execute(arguments: [MusicDirectoryRecord.untrusted, directory])
        }
    }
}
