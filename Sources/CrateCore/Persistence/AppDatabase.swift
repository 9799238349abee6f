import Foundation
import GRDB
import Synchronization

/// The one owner of Crate's SQLite database.
///
/// Rules: one writer (a WAL `DatabasePool` on disk); schema changes only through the named
/// migrations in `AppDatabase+Migrations.swift`; every write that must keep an invariant happens in
/// one transaction inside this type. A database written by a newer Crate, or in a directory this
/// user cannot write, is opened truly read-only (`SQLITE_OPEN_READONLY`: not a byte is written).
/// Many processes may open one library at once: the open and the migrations run under one lock
/// (`LibraryLock`), and queued photos are leased to one process (`leaseOwner`).
public final class AppDatabase: Sendable {
    /// Why a library is open read-only.
    public enum ReadOnlyReason: Equatable, Sendable {
        /// Written by a newer Crate (an unknown migration, or a higher `PRAGMA user_version`).
        case newerVersion
        /// The data directory cannot be written by this user.
        case directoryNotWritable(String)
        /// The disk holding the data directory is full (or failing): the writable open, which
        /// commits a WAL frame and may migrate, could not write.
        case diskFull(String)
    }

    /// The connection(s). Reads may go straight through `reader`; writes go through intent methods.
    let writer: any DatabaseWriter
    /// Why nothing may be written to this library, or nil when it is writable.
    public let readOnlyReason: ReadOnlyReason?
    /// True when nothing may be written (see `readOnlyReason`).
    public var isReadOnly: Bool { readOnlyReason != nil }
    /// What to tell the user about a read-only library, or nil when it is writable.
    public var readOnlyNotice: String? {
        switch readOnlyReason {
        case nil: return nil
        case .newerVersion: return CrateError.databaseNewerThanApp(path: fileURL?.path ?? "memory").message
        case .directoryNotWritable(let directory): return CrateError.databaseDirectoryReadOnly(directory: directory).message
        case .diskFull(let directory):
            return L10n.tr("The disk holding your library (%@) is full, so it is open read-only: you can look through it, but nothing can be saved until some space is freed.", directory)
        }
    }
    /// This opening's claim on queued photos (docs/decisions/0006-bulk-scan-queue.md): one per
    /// `AppDatabase`, so each process (and each opening in a test) is its own lease owner.
    public let leaseOwner = BatchLeaseOwner()
    /// Set when a damaged file was moved aside at open, so the UI and CLI can say so.
    public let recoveryNotice: String?
    /// The file, or nil for an in-memory database.
    public let fileURL: URL?
    /// Set once `verifyIntegrity()` found damage: from then on nothing is written (see
    /// `checkWritable`), and the next open moves the file aside.
    let damageFound = Mutex<Bool>(false)
    /// Announces commits to the stores that show the changed tables (`changes(in:)`).
    let changeFeed: DatabaseChangeFeed

    public var reader: any DatabaseReader { writer }

    /// `changePollInterval` is how often other processes' commits are looked for while a store
    /// listens; nil for a database no other connection can reach.
    init(writer: any DatabaseWriter, readOnlyReason: ReadOnlyReason? = nil, recoveryNotice: String? = nil, fileURL: URL? = nil,
         changePollInterval: Duration? = nil) throws {
        self.writer = writer
        self.readOnlyReason = readOnlyReason
        self.recoveryNotice = recoveryNotice
        self.fileURL = fileURL
        changeFeed = DatabaseChangeFeed(writer: writer, pollInterval: changePollInterval)
        if readOnlyReason == nil {
            // Checked in a read first: `migrate` always runs a write transaction, which ends in an
            // fsync of the WAL even when every migration is applied (most opens).
            if try !writer.read({ try Self.migrator.hasCompletedMigrations($0) }) {
                try Self.migrator.migrate(writer)
            }
            try writer.writeWithoutTransaction { db in
                // Written once per new schema; an open that changes nothing writes nothing.
                if try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 < Self.schemaGeneration {
                    try db.execute(sql: "PRAGMA user_version = \(Self.schemaGeneration)")
                }
            }
        }
        writer.add(transactionObserver: TableChangeRecorder(feed: changeFeed), extent: .databaseLifetime)
    }

    /// A fresh, migrated in-memory database (tests, previews).
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue(configuration: makeConfiguration(readOnly: false)))
    }

    /// How often, by default, the library is checked for commits made by another process.
    public static let defaultChangePollInterval: Duration = .milliseconds(300)

    /// How long an open waits for another process that is opening (and migrating) the library.
    static let openLockTimeout: Duration = .seconds(30)

    /// When an open reads the whole file looking for damage (`PRAGMA quick_check`), which costs
    /// about 2 ms per megabyte (0.1–0.2 s for a crate of 100 000 albums).
    public enum IntegrityCheck: Sendable {
        /// Before the library is used (the CLI, tests): a damaged file is moved aside at once.
        case atOpen
        /// Left to `verifyIntegrity()`, which the window runs in the background once its first
        /// frame is up. A library whose last check found damage (the marker beside it) is still
        /// checked, and moved aside, at open. See docs/decisions/0025-deferred-integrity-check.md.
        case deferred
    }

    /// What `verifyIntegrity()` found.
    public enum IntegrityResult: Equatable, Sendable {
        case ok
        /// Damage; nothing more is written, and the next open moves the file aside. The message
        /// is for the user.
        case damaged(message: String)
    }

    /// Opens (creating if needed) the library at `paths.databaseURL`.
    ///
    /// A file that is not SQLite, or is damaged, is renamed with a timestamp and replaced by a new
    /// library; `recoveryNotice` says where the old one went. A data directory this user cannot
    /// write opens an existing library read-only; without a library it throws
    /// `CrateError.directoryNotWritable`. Checking, repairing and migrating happen under
    /// `LibraryLock`, so any number of processes may open one library at the same moment.
    /// `changePollInterval`: see `changes(in:)`.
    /// `integrityCheck`: whether the whole file is checked for damage now or later (see
    /// `IntegrityCheck`); the header is always checked now.
    public static func open(paths: CratePaths, now: Date = Date(),
                            changePollInterval: Duration = defaultChangePollInterval,
                            integrityCheck: IntegrityCheck = .atOpen) throws -> AppDatabase {
        let url = paths.databaseURL
        do {
            try CratePaths.ensureWritable(paths.dataDirectory)
        } catch let error as CrateError {
            guard FileManager.default.isReadableFile(atPath: url.path) else { throw error }
            let reason = ReadOnlyReason.directoryNotWritable(paths.dataDirectory.path)
            Log.notice("\(paths.dataDirectory.path) is not writable; library opened read-only")
            return try openReadOnly(at: url, reason: reason, notice: nil, changePollInterval: changePollInterval)
        }
        let lock = try LibraryLock.acquire(beside: url, timeout: openLockTimeout)
        defer { lock?.release() }
        var notice: String?
        if let problem = damage(at: url) {
            notice = try moveAside(url, because: problem, now: now)
        }
        // A background check found damage last time: check (and move aside) before any use.
        let marker = damageMarker(beside: url)
        let checkNow = integrityCheck == .atOpen || FileManager.default.fileExists(atPath: marker.path)
        do {
            let database = try openPool(at: url, notice: notice, check: checkNow, changePollInterval: changePollInterval)
            // Checked and sound (a repaired or replaced file): the old finding no longer holds.
            if checkNow { try? FileManager.default.removeItem(at: marker) }
            return database
        } catch let error as DatabaseError where isOutOfSpace(error) && FileManager.default.isReadableFile(atPath: url.path) {
            // A full disk must not stop reading: open without writing anything (no WAL frame,
            // no migration, no checkpoint) and say why nothing can be saved.
            Log.notice("the disk holding \(url.path) is full (\(error.message ?? "\(error.resultCode)")); library opened read-only")
            return try openReadOnly(at: url, reason: .diskFull(paths.dataDirectory.path), notice: notice, changePollInterval: changePollInterval)
        } catch let error as DatabaseError where isDamage(error) {
            // Damage deeper in the file than the header: move aside once and start fresh. SQLite's
            // own words ("Page 97: btreeInitPage() returns error code 11") go to the log, not the banner.
            Log.error("\(url.path) is damaged: \(error.message ?? "\(error.resultCode)")")
            let moved = try moveAside(url, because: "parts of the file are damaged", now: now)
            try? FileManager.default.removeItem(at: marker)
            return try openPool(at: url, notice: moved, check: true, changePollInterval: changePollInterval)
        } catch let error as DatabaseError {
            throw CrateError.databaseOpenFailed(path: url.path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Reads the whole file looking for damage (`PRAGMA quick_check(1)`), on the calling thread
    /// (the window runs it in the background after its first frame: `IntegrityCheck.deferred`).
    /// Damage stops every later write of this opening (`CrateError.libraryDamaged`) and leaves a
    /// marker beside the file, so the next open checks again and moves the file aside
    /// (docs/reliability.md #3). A library opened read-only is only checked, never marked.
    public func verifyIntegrity() -> IntegrityResult {
        let problem: String?
        do {
            let check = try reader.read { try String.fetchOne($0, sql: "PRAGMA quick_check(1)") } ?? "ok"
            problem = check == "ok" ? nil : check
        } catch let error as DatabaseError where Self.isDamage(error) {
            problem = error.message ?? "the file is damaged"
        } catch {
            // Not damage (the file went away, a lock held too long): nothing is concluded.
            Log.error("the library's integrity check could not run: \(UserMessage.text(for: error))")
            return .ok
        }
        guard let problem else { return .ok }
        damageFound.withLock { $0 = true }
        Log.error("library damaged: \(problem)")
        if let fileURL, readOnlyReason == nil {
            let marker = Self.damageMarker(beside: fileURL)
            if !FileManager.default.createFile(atPath: marker.path, contents: Data((problem + "\n").utf8)) {
                Log.error("could not write \(marker.path)")
            }
        }
        return .damaged(message: CrateError.libraryDamaged(path: fileURL?.path ?? "memory").message)
    }

    /// The file that says a background check found this library damaged.
    static func damageMarker(beside url: URL) -> URL {
        URL(fileURLWithPath: url.path + ".damage-found")
    }

    /// The last migration this database has applied (`v1`, …), or nil for none.
    public func schemaVersion() throws -> String? {
        try reader.read { db in
            guard try db.tableExists("grdb_migrations") else { return nil }
            return try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1")
        }
    }

    /// Identifiers of the migrations applied to this library, in the order they ran.
    public func appliedMigrations() throws -> [String] {
        try reader.read { db in
            guard try db.tableExists("grdb_migrations") else { return [] }
            return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    /// Identifiers of the migrations this build knows.
    public static var knownMigrations: [String] { migrator.migrations }

    /// The `PRAGMA user_version` this build writes: how many migrations it knows. A library with a
    /// higher number was written by a newer Crate (even one whose migrations are named
    /// differently), so it is opened read-only.
    public static var schemaGeneration: Int { knownMigrations.count }

    // MARK: - Private

    static func makeConfiguration(readOnly: Bool) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        config.foreignKeysEnabled = true
        config.label = "crate"
        // Another process (the CLI next to the app, a second `crate batch run`) may hold the
        // write lock briefly.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            db.add(function: BatchLeaseOwner.goneFunction)
            db.add(collation: NaturalOrder.collation)
            // Belt and braces: a read-only opening refuses writes even through a path that
            // forgot `checkWritable()`.
            if readOnly { try db.execute(sql: "PRAGMA query_only = 1") }
        }
        return config
    }

    /// Opens the library for writing and migrates it, unless it was written by a newer Crate.
    /// `check`: run the quick check now. Called with `LibraryLock` held.
    private static func openPool(at url: URL, notice: String?, check: Bool, changePollInterval: Duration) throws -> AppDatabase {
        // Looked at through a read-only connection first: deciding that a library must not be
        // written must not itself write (a read-write open commits a WAL frame).
        let existing = try isSuperseded(at: url, check: check)
        if existing == true {
            Log.notice("database \(url.path) is newer than this build; opened read-only")
            return try openReadOnly(at: url, reason: .newerVersion, notice: notice, changePollInterval: changePollInterval)
        }
        if let fault = writableOpenFaults.withLock({ $0[url.path] }) { throw fault }
        let pool = try DatabasePool(path: url.path, configuration: makeConfiguration(readOnly: false))
        // A quick check finds damage beyond the header before we trust the file. An existing file
        // was checked by the probe just now; the check reads every page, so it runs once, not twice.
        if existing == nil, check {
            try pool.read { db in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "ok"
                guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check) }
            }
        }
        return try AppDatabase(writer: pool, recoveryNotice: notice, fileURL: url, changePollInterval: changePollInterval)
    }

    /// Whether an existing library was written by a newer Crate: a migration this build does not
    /// know, or a higher `PRAGMA user_version`. Nil for a missing or empty file (a new library,
    /// not looked at); otherwise the file also passed a quick check when `check` is true.
    private static func isSuperseded(at url: URL, check: Bool) throws -> Bool? {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size > 0 else { return nil }
        let probe = try openReadOnlyConnection(at: url)
        defer { try? probe.close() }
        return try probe.read { db in
            if check {
                let result = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "ok"
                guard result == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: result) }
            }
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            return try migrator.hasBeenSuperseded(db) || version > schemaGeneration
        }
    }

    /// The library opened read-only: nothing is written, at open, while reading, or at close.
    private static func openReadOnly(at url: URL, reason: ReadOnlyReason, notice: String?, changePollInterval: Duration) throws -> AppDatabase {
        do {
            let queue = try openReadOnlyConnection(at: url)
            return try AppDatabase(writer: queue, readOnlyReason: reason, recoveryNotice: notice, fileURL: url,
                                   changePollInterval: changePollInterval)
        } catch let error as DatabaseError {
            throw CrateError.databaseOpenFailed(path: url.path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// One `SQLITE_OPEN_READONLY` connection. In a directory nobody may write, SQLite cannot
    /// create the WAL index it needs to read a WAL library; the file is then read as
    /// `immutable` (nothing can be changing it from here), which needs no index at all.
    private static func openReadOnlyConnection(at url: URL) throws -> DatabaseQueue {
        let configuration = makeConfiguration(readOnly: true)
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "?#%")
            let escaped = url.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? url.path
            return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration)
        }
    }

    /// Fault injection for tests, by library path: the error the writable open throws. A full
    /// disk cannot be made on demand where the tests run (no tmpfs), and `max_page_count` is per
    /// connection, so a new connection cannot be made to meet one.
    static let writableOpenFaults = Mutex<[String: DatabaseError]>([:])

    /// A write that failed for want of space (or a failing disk): SQLite's FULL and IOERR.
    private static func isOutOfSpace(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR
    }

    /// SQLite met a damaged page or a file that is not a database (also how `UserMessage` and
    /// `userFacing` tell damage from other failures).
    static func isDamage(_ error: DatabaseError) -> Bool {
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
