import Foundation

extension AppDatabase {
    /// Yields once after each commit that touches any of `tables` (names as in the schema,
    /// e.g. `Album.databaseTableName`), so a store can reload what it shows.
    ///
    /// Commits from this process are matched by table. Commits from another process (the CLI
    /// writing the same library) are noticed within about one poll interval and reach every
    /// subscriber. Commits that land while the subscriber is busy are coalesced into one element.
    /// Iterate the stream in a task; cancelling that task ends the subscription, and the library
    /// stops polling when nobody subscribes.
    public func changes(in tables: Set<String>) -> AsyncStream<Void> {
        changeFeed.changes(in: tables)
    }
}
