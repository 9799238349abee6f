import Foundation
import GRDB

/// The one owner of Crate's SQLite database.
///
/// Rules: one writer (a WAL `DatabasePool` on disk); schema changes only through the named
/// migrations in `AppDatabase+Migrations.swift`; every write that must keep an invariant happens in
/// one transaction inside this type. A database written by a newer Crate is opened read-only.
public final class AppDatabase: Sendable {
    /// The connection(s). Reads may go straight through `reader`; writes go through intent methods.
    let writer: any DatabaseWriter
    /// True when the file was written by a newer Crate: nothing may be written to it.
    public let isReadOnly: Bool
    /// Set when a damaged file was moved aside at open, so the UI and CLI can say so.
    public let recoveryNotice: String?
    /// The file, or nil for an in-memory database.
    public let fileURL: URL?
    /// Announces commits to the stores that show the changed tables (`changes(in:)`).
    let changeFeed: DatabaseChangeFeed

    public var reader: any DatabaseReader { writer }

    /// `changePollInterval` is how often other processes' commits are looked for while a store
    /// listens; nil for a database no other connection can reach.
    init(writer: any DatabaseWriter, isReadOnly: Bool = false, recoveryNotice: String? = nil, fileURL: URL? = nil,
         changePollInterval: Duration? = nil) throws {
        self.writer = writer
        self.isReadOnly = isReadOnly
        self.recoveryNotice = recoveryNotice
        self.fileURL = fileURL
        changeFeed = DatabaseChangeFeed(writer: writer, pollInterval: changePollInterval)
        if !isReadOnly {
            try Self.migrator.migrate(writer)
        }
        writer.add(transactionObserver: TableChangeRecorder(feed: changeFeed), extent: .databaseLifetime)
    }

    /// A fresh, migrated in-memory database (tests, previews).
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue(configuration: makeConfiguration(readOnly: false)))
    }

    /// How often, by default, the library is checked for commits made by another process.
    public static let defaultChangePollInterval: Duration = .milliseconds(300)

    /// Opens (creating if needed) the library at `paths.databaseURL`.
    ///
    /// A file that is not SQLite, or is damaged, is renamed with a timestamp and replaced by a new
    /// library; `recoveryNotice` says where the old one went. Throws `CrateError` for a directory
    /// Crate cannot write to. `changePollInterval`: see `changes(in:)`.
    public static func open(paths: CratePaths, now: Date = Date(),
                            changePollInterval: Duration = defaultChangePollInterval) throws -> AppDatabase {
        try CratePaths.ensureWritable(paths.dataDirectory)
        let url = paths.databaseURL
        var notice: String?
        if let problem = damage(at: url) {
            notice = try moveAside(url, because: problem, now: now)
        }
        do {
            return try openPool(at: url, notice: notice, changePollInterval: changePollInterval)
        } catch let error as DatabaseError where isDamage(error) {
            // Damage deeper in the file than the header: move aside once and start fresh.
            let moved = try moveAside(url, because: error.message ?? "the file is damaged", now: now)
            return try openPool(at: url, notice: moved, changePollInterval: changePollInterval)
        } catch let error as DatabaseError {
            throw CrateError.databaseOpenFailed(path: url.path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// The last migration this database has applied (`v1`, …), or nil for none.
    public func schemaVersion() throws -> String? {
        try reader.read { db in
            guard try db.tableExists("grdb_migrations") else { return nil }
            return try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1")
        }
    }

    /// Identifiers of the migrations this build knows.
    public static var knownMigrations: [String] { migrator.migrations }

    // MARK: - Private

    static func makeConfiguration(readOnly: Bool) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        config.foreignKeysEnabled = true
        config.label = "crate"
        // Another process (the CLI next to the app) may hold the write lock briefly.
        config.busyMode = .timeout(5)
        return config
    }

    private static func openPool(at url: URL, notice: String?, changePollInterval: Duration) throws -> AppDatabase {
        let pool = try DatabasePool(path: url.path, configuration: makeConfiguration(readOnly: false))
        // Reading the schema and a quick check finds damage beyond the header before we trust the file.
        let superseded = try pool.read { db -> Bool in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "ok"
            guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check) }
            return try migrator.hasBeenSuperseded(db)
        }
        if superseded {
            try pool.close()
            Log.notice("database \(url.path) is newer than this build; opened read-only")
            let readOnlyPool = try DatabasePool(path: url.path, configuration: makeConfiguration(readOnly: true))
            return try AppDatabase(writer: readOnlyPool, isReadOnly: true, recoveryNotice: notice, fileURL: url,
                                   changePollInterval: changePollInterval)
        }
        return try AppDatabase(writer: pool, recoveryNotice: notice, fileURL: url, changePollInterval: changePollInterval)
    }

    private static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    /// A reason if the file exists but cannot be a SQLite database, judged from its header alone.
    private static func damage(at url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return nil }  // An empty file is a valid, empty database.
        return header == Data("SQLite format 3\u{0}".utf8) ? nil : "the file is not a SQLite database"
    }

    /// Renames the file (and its WAL and SHM companions) with a timestamp; returns the message.
    private static func moveAside(_ url: URL, because reason: String, now: Date) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: now)
        let fm = FileManager.default
        var target = URL(fileURLWithPath: url.path + ".damaged-\(stamp)")
        var counter = 1
        while fm.fileExists(atPath: target.path) {
            counter += 1
            target = URL(fileURLWithPath: url.path + ".damaged-\(stamp)-\(counter)")
        }
        do {
            try fm.moveItem(at: url, to: target)
            for suffix in ["-wal", "-shm"] where fm.fileExists(atPath: url.path + suffix) {
                try fm.moveItem(atPath: url.path + suffix, toPath: target.path + suffix)
            }
        } catch {
            throw CrateError.databaseOpenFailed(path: url.path, reason: "it is damaged and could not be moved aside (\(UserMessage.text(for: error)))")
        }
        let message = "Your library could not be read (\(reason)). It was moved to \(target.path) and a new, empty library was created."
        Log.error(message)
        return message
    }
}
