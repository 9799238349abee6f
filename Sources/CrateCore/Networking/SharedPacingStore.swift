import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Request pacing shared by every Crate process of the user: one small file per host holding the
/// next free slot and the server's "not before" (see `PacingRecord`).
///
/// Why: MusicBrainz allows one request per second per IP address, not per process. The window and
/// any number of `crate` commands run side by side, and each used to pace only itself. Now each
/// reservation takes the host's file with `flock` (an exclusive lock on the open file, which also
/// excludes other descriptors in the same process), reads the next slot, writes the one after it,
/// and lets go — the lock is held for two small reads and writes, never while waiting for the slot,
/// so a process sleeping until its turn does not stop another from booking the turn after.
///
/// Every failure here (no directory, a lock that cannot be had within a second, an unreadable
/// file) is thrown; `RateLimiter` then falls back to pacing within its own process.
public struct SharedPacingStore: Sendable {
    /// Where the files live: `$XDG_RUNTIME_DIR/crate`, or `<cache>/pacing`.
    public let directory: URL
    /// The furthest ahead a next slot may be; further means the file is wrong (see `PacingRecord`).
    public let slotHorizon: TimeInterval
    /// The longest server-imposed wait that is kept.
    public let deferralHorizon: TimeInterval

    /// What a reservation got.
    public enum Reservation: Equatable, Sendable {
        /// The request may start at this wall-clock time (now or later); the slot is booked.
        case slot(TimeInterval)
        /// The server asked that nothing be sent before this wall-clock time, later than the caller
        /// will wait; nothing was booked.
        case deferred(until: TimeInterval)
    }

    /// Why the shared state could not be used.
    public enum Failure: Error, Equatable, Sendable {
        case directory(String)
        case open(path: String, errno: Int32)
        case lockTimeout(path: String)
        case io(path: String, errno: Int32)
    }

    public init(directory: URL, slotHorizon: TimeInterval = 600, deferralHorizon: TimeInterval = RetryAfter.maximum) {
        self.directory = directory
        self.slotHorizon = slotHorizon
        self.deferralHorizon = deferralHorizon
    }

    /// The store for the user running this process: `$XDG_RUNTIME_DIR/crate/` (a per-user tmpfs,
    /// emptied at logout, made for exactly this), else `pacing/` in Crate's cache directory when
    /// the variable is unset, relative (invalid per the XDG spec) or not writable. Nil when neither
    /// is usable; pacing then stays per process.
    public static func forUser(environment: [String: String], cacheDirectory: URL) -> SharedPacingStore? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let directory = URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("crate", isDirectory: true)
            if (try? Self.prepare(directory)) != nil { return SharedPacingStore(directory: directory) }
        }
        let fallback = cacheDirectory.appendingPathComponent("pacing", isDirectory: true)
        if (try? Self.prepare(fallback)) != nil { return SharedPacingStore(directory: fallback) }
        return nil
    }

    /// Books the next slot for `key` at least `interval` after the last one, honouring any
    /// deferral. Unpaced callers (`interval` 0) book nothing: they only learn about a deferral.
    ///
    /// - Parameters:
    ///   - now: wall-clock seconds since 1970.
    ///   - maxDeferral: a deferral ending later than `now + maxDeferral` is returned as `.deferred`
    ///     instead of booking a slot behind it.
    public func reserve(key: String, interval: TimeInterval, now: TimeInterval, maxDeferral: TimeInterval) throws -> Reservation {
        try withRecord(key: key, now: now) { record in
            // A file written by an older Crate may hold a longer pause: never honoured past the horizon.
            record.deferredUntil = min(record.deferredUntil, now + deferralHorizon)
            if record.deferredUntil - now > maxDeferral { return .deferred(until: record.deferredUntil) }
            let start = max(now, record.deferredUntil, interval > 0 ? record.nextSlot : now)
            if interval > 0 { record.nextSlot = start + interval }
            return .slot(start)
        }
    }

    /// Records the server's "not before `until`" for every process; an earlier deferral never
    /// shortens a later one.
    public func deferKey(_ key: String, until: TimeInterval, now: TimeInterval) throws {
        try withRecord(key: key, now: now) { record in
            record.deferredUntil = max(record.deferredUntil, min(until, now + deferralHorizon))
            record.nextSlot = max(record.nextSlot, record.deferredUntil)
        }
    }

    /// The wall-clock time before which nothing may be sent to `key` (≤ `now` when none).
    public func deferredUntil(key: String, now: TimeInterval) throws -> TimeInterval {
        try withRecord(key: key, now: now) { min($0.deferredUntil, now + deferralHorizon) }
    }

    /// The file for `key`: the host (and port) with anything but `[a-z0-9.-]` replaced, so a key
    /// can never name a path outside the directory.
    public func fileURL(key: String) -> URL {
        let safe = String(key.lowercased().unicodeScalars.map { scalar -> Character in
            let allowed = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "." || scalar == "-"
            return allowed ? Character(scalar) : "_"
        })
        let name = safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "_" : safe
        return directory.appendingPathComponent("\(name).pace")
    }
}

// MARK: - Private

private extension SharedPacingStore {
    /// How long to wait for another process's lock: it is held for microseconds, so a second
    /// means that process is stopped (a debugger, SIGSTOP) and pacing goes on without it.
    static let lockTimeout: TimeInterval = 1

    static func prepare(_ directory: URL) throws {
        if !FileManager.default.fileExists(atPath: directory.path) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Failure.directory(directory.path)
            }
        }
        guard access(directory.path, W_OK | X_OK) == 0 else { throw Failure.directory(directory.path) }
    }

    /// Opens and locks `key`'s file, hands `body` the record as of `now`, writes it back, unlocks.
    func withRecord<T>(key: String, now: TimeInterval, _ body: (inout PacingRecord) -> T) throws -> T {
        let path = fileURL(key: key).path
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0, errno == ENOENT {
            // The runtime directory is emptied at logout and may vanish under a running process.
            try Self.prepare(directory)
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        guard fd >= 0 else { throw Failure.open(path: path, errno: errno) }
        defer { close(fd) }
        try Self.lock(fd, path: path)
        defer { flock(fd, LOCK_UN) }

        var record = PacingRecord(parsing: try Self.readAll(fd, path: path))
            .normalized(now: now, slotHorizon: slotHorizon, deferralHorizon: deferralHorizon)
        let result = body(&record)
        // Never backwards: a caller that read the clock just before another one wrote.
        record.written = max(record.written, now)
        try Self.replace(fd, with: record.serialized, path: path)
        return result
    }

    static func lock(_ fd: Int32, path: String) throws {
        let deadline = ProcessInfo.processInfo.systemUptime + lockTimeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw Failure.io(path: path, errno: errno) }
            guard ProcessInfo.processInfo.systemUptime < deadline else { throw Failure.lockTimeout(path: path) }
            usleep(500)
        }
    }

    /// At most 4 KB: a record is under 100 bytes, and a huge file is garbage anyway.
    static func readAll(_ fd: Int32, path: String) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw Failure.io(path: path, errno: errno) }
        return Data(buffer[0..<count])
    }

    /// Truncate, then write: a crash in between leaves an empty file, which reads as "no state".
    static func replace(_ fd: Int32, with data: Data, path: String) throws {
        guard ftruncate(fd, 0) == 0 else { throw Failure.io(path: path, errno: errno) }
        let written = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == data.count else { throw Failure.io(path: path, errno: errno) }
    }
}
