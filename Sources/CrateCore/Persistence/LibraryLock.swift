import Foundation

/// An exclusive `flock` on `crate.sqlite.lock` next to the library, held by one process while it
/// checks, repairs and migrates the library at open (docs/reliability.md #18).
///
/// Why a lock file rather than SQLite's own locks: the open does several things SQLite cannot put
/// in one transaction — moving a damaged file aside, GRDB switching the file to WAL, and the
/// migrator, which runs each migration in its own transaction. Without one lock around them,
/// two processes opening a new library together both saw "no migrations applied" and the second
/// failed with "table album already exists". The kernel drops a `flock` when its process dies, so
/// a kill mid-migration never leaves a stale lock behind. Only the open takes it; reads and writes
/// afterwards rely on SQLite's locking and busy timeout.
final class LibraryLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    /// Waits up to `timeout` for the lock beside `databaseURL`. Returns nil when the lock file can
    /// be neither created nor opened (a read-only directory): such a process only reads, and needs
    /// no lock. Throws `CrateError.libraryBusy` when another process keeps it past `timeout`.
    static func acquire(beside databaseURL: URL, timeout: Duration) throws -> LibraryLock? {
        let path = databaseURL.path + ".lock"
        var descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 { descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        let lock = LibraryLock(descriptor: descriptor)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            // Another process is opening the library; migrations take milliseconds.
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                throw CrateError.libraryBusy(path: databaseURL.path)
            }
            usleep(20_000)
        }
        return lock
    }

    /// Unlocks (closing the descriptor drops the `flock`); safe to call twice.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}
