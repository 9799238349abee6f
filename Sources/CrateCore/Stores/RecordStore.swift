import Foundation

/// What the album pane shows about the record: the release's facts, the copies owned, whether
/// it is wanted, and — right after a scan — the verdict.
public struct RecordState: Equatable, Sendable {
    public var albumID: Int64?
    public var facts: ReleaseFacts?
    public var collection = CollectionState()
    /// The verdict of the scan that just showed this album; nil for an album opened otherwise.
    public var verdict: Verdict?
    /// Why the last change could not be saved, in plain words.
    public var errorMessage: String?

    public init() {}

    /// "12\" Vinyl · Harvest · SHVL 804 · GB · 1973": what tells this release from others.
    public var factsLine: String? {
        guard let facts else { return nil }
        let parts = [facts.formatSummary, facts.labels.first, facts.catalogNumbers.first, facts.country, facts.year].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

/// A collection change, and how to take it back (the window's Undo).
public enum CollectionUndo: Equatable, Sendable {
    case removeCopy(OwnedCopy)
    case restoreCopy(OwnedCopy)
    case setWanted(albumID: Int64, wantedAt: Date?)
}

/// The shown album's record. Intents write one transaction each and return their Undo.
@MainActor
public final class RecordStore {
    public static let observedTables: Set<String> = [Album.databaseTableName, "album_copy", "release_facts"]

    public let state = ObservableValue(RecordState())
    private let database: AppDatabase
    /// The shown album's facts and copies, read again after every change.
    private lazy var query = ObservedQuery<Answer>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }

    public init(database: AppDatabase) {
        self.database = database
    }

    public func start() {
        query.start()
    }

    public func stop() {
        query.stop()
    }

    /// Shows `albumID`'s record; `verdict` is the scan's, when a scan just found it.
    public func show(albumID: Int64?, verdict: Verdict? = nil) async {
        guard albumID != state.value.albumID || verdict != nil else { return }
        var next = RecordState()
        // The same album scanned again keeps what it shows until the refresh (no flash of "I Own This").
        if albumID == state.value.albumID { next = state.value }
        next.albumID = albumID
        next.verdict = verdict
        next.errorMessage = nil
        state.set(next)
        await refresh()
    }

    /// Adds a copy (the release's format, the album's release).
    public func own() async -> CollectionUndo? {
        guard let id = state.value.albumID else { return nil }
        return await write { db in .removeCopy(try db.own(albumID: id)) }
    }

    public func unown(copyID: Int64) async -> CollectionUndo? {
        guard let id = state.value.albumID else { return nil }
        return await write { db in try db.unown(albumID: id, copyID: copyID).map(CollectionUndo.restoreCopy) }
    }

    /// Wanted ⇄ not wanted.
    public func toggleWanted() async -> CollectionUndo? {
        guard let id = state.value.albumID else { return nil }
        let wanted = state.value.collection.isWanted
        return await write { db in
            .setWanted(albumID: id, wantedAt: wanted ? try db.unwant(albumID: id) : try db.want(albumID: id))
        }
    }

    public func undo(_ change: CollectionUndo) async {
        _ = await write { db -> CollectionUndo? in
            switch change {
            case .removeCopy(let copy): _ = try db.unown(albumID: copy.albumID, copyID: copy.id)
            case .restoreCopy(let copy): try db.restoreCopy(copy)
            case .setWanted(let albumID, let wantedAt): try db.restoreWanted(albumID: albumID, wantedAt: wantedAt)
            }
            return nil
        }
    }

    func refresh() async {
        await query.refresh()
    }

    private typealias Answer = (albumID: Int64, facts: ReleaseFacts?, collection: CollectionState)

    private func makeRead() -> ObservedQuery<Answer>.Read? {
        guard let id = state.value.albumID else { return nil }
        let database = self.database
        return { try database.read { db in (id, try ReleaseFactsRequest(albumID: id).fetch(db), try CollectionStateRequest(albumID: id).fetch(db)) } }
    }

    private func apply(_ result: Result<Answer, any Error>) {
        switch result {
        case .success(let answer):
            guard state.value.albumID == answer.albumID else { return }
            state.update {
                $0.facts = answer.facts
                $0.collection = answer.collection
            }
        case .failure(let error):
            state.update { $0.errorMessage = UserMessage.text(for: error) }
        }
    }

    private func write(_ change: @escaping @Sendable (AppDatabase) throws -> CollectionUndo?) async -> CollectionUndo? {
        let database = self.database
        do {
            let undo = try await Task.detached { try change(database) }.value
            state.update { $0.errorMessage = nil }
            await refresh()
            return undo
        } catch {
            state.update { $0.errorMessage = UserMessage.text(for: error) }
            return nil
        }
    }
}
