import GRDB

/// Notes which tables a transaction changed and hands them to the change feed when it commits.
///
/// Added to the writer connection for the database's lifetime. GRDB calls it only on that
/// connection's serial queue, one transaction at a time, so its pending set needs no lock.
final class TableChangeRecorder: TransactionObserver {
    /// Weak: the writer keeps this recorder alive, and the feed keeps the writer alive.
    private weak var feed: DatabaseChangeFeed?
    private var changedTables: Set<String> = []
    /// Set by `Database.notifyChanges(in:)`-style changes whose tables GRDB cannot name.
    private var changedUnknownTables = false

    init(feed: DatabaseChangeFeed) {
        self.feed = feed
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        changedTables.insert(event.tableName)
    }

    func databaseDidChange() {
        changedUnknownTables = true
    }

    func databaseDidCommit(_ db: Database) {
        let tables = changedTables
        let unknown = changedUnknownTables
        reset()
        if unknown {
            feed?.announceAllTables()
        } else if !tables.isEmpty {
            feed?.announce(tables)
        }
    }

    func databaseDidRollback(_ db: Database) {
        reset()
    }

    private func reset() {
        changedTables = []
        changedUnknownTables = false
    }
}
