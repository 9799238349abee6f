import Foundation
import Testing
@testable import CrateCore

@Suite("HistoryStore")
@MainActor
struct HistoryStoreTests {
    @Test func startsLoadingThenShowsEmptyState() async throws {
        let store = HistoryStore(database: try AppDatabase.inMemory())
        #expect(store.state.value.phase == .loading)
        #expect(!store.state.value.isEmpty, "not 'empty' before the first load")
        await store.reload()
        #expect(store.state.value.isEmpty)
    }

    @Test func reloadListsScansNewestFirst() async throws {
        let db = try AppDatabase.inMemory()
        try db.saveScan(of: .sample("Old"), method: .vision, at: Date(timeIntervalSince1970: 100))
        try db.saveScan(of: .sample("New"), method: .vision, at: Date(timeIntervalSince1970: 200))
        let store = HistoryStore(database: db)
        var notifications = 0
        let token = store.state.subscribe { _ in notifications += 1 }
        await store.reload()
        #expect(store.state.value.entries.map(\.album.title) == ["New", "Old"])
        #expect(notifications == 1)
        token.cancel()
    }

    @Test func deleteThenUndoRestoresTheScan() async throws {
        let db = try AppDatabase.inMemory()
        let kept = try db.saveScan(of: .sample("Kept"), method: .vision, at: Date(timeIntervalSince1970: 100))
        let removed = try db.saveScan(of: .sample("Removed"), method: .vision, at: Date(timeIntervalSince1970: 200))
        let store = HistoryStore(database: db)
        await store.reload()

        await store.delete(scanID: removed.id)
        #expect(store.state.value.entries.map(\.id) == [kept.id])
        #expect(store.state.value.undoableDeletion?.id == removed.id)
        #expect(try db.read(HistoryPageRequest()).count == 1, "the delete reached the database")

        await store.undoDelete()
        #expect(store.state.value.entries.map(\.id) == [removed.id, kept.id])
        #expect(store.state.value.undoableDeletion == nil)
    }

    @Test func commitDeletionForgetsTheUndo() async throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: .sample(), method: .vision)
        let store = HistoryStore(database: db)
        await store.reload()
        await store.delete(scanID: entry.id)
        store.commitDeletion()
        await store.undoDelete()
        #expect(store.state.value.entries.isEmpty)
    }

    @Test func aFailedDeleteIsReportedAndLosesNothing() async throws {
        let dir = try TemporaryDirectory()
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            try db.saveScan(of: .sample(), method: .vision)
            try await db.writer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
        }
        let reopened = try AppDatabase.open(paths: dir.paths)
        let store = HistoryStore(database: reopened)
        await store.reload()
        let id = try #require(store.state.value.entries.first?.id)
        await store.delete(scanID: id)
        #expect(store.state.value.entries.count == 1)
        #expect(store.state.value.errorMessage == CrateError.databaseReadOnly.message)
    }
}

@Suite("HistoryStore paging")
@MainActor
struct HistoryPagingTests {
    @Test func loadsAPageAtATimeNewestFirst() async throws {
        let db = try AppDatabase.inMemory()
        for i in 0..<25 {
            try db.saveScan(of: .sample("Album \(i)"), method: .vision, at: Date(timeIntervalSince1970: Double(i)))
        }
        let store = HistoryStore(database: db, pageSize: 10)
        await store.reload()
        #expect(store.state.value.entries.count == 10)
        #expect(store.state.value.hasMore)
        await store.loadMore()
        await store.loadMore()
        #expect(store.state.value.entries.map(\.album.title) == (0..<25).reversed().map { "Album \($0)" })
        #expect(!store.state.value.hasMore)
        await store.loadMore()
        #expect(store.state.value.entries.count == 25)
    }
}
