import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Undo after deleting a history row brings the scan back every time, while the store follows the
/// database (the reload each write starts may still be running when Undo is pressed).
@Suite("History undo")
@MainActor
struct HistoryUndoTests {
    @Test func undoBringsTheScanBackEveryTime() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: dir.paths)
        for index in 0..<5 { _ = try database.saveScan(of: .sample("Album \(index)"), method: .manual) }
        let history = HistoryStore(database: database)
        history.start()
        defer { history.stop() }
        #expect(await waitUntil(history.state) { history.state.value.entries.count == 5 } != nil)

        for round in 0..<30 {
            let target = history.state.value.entries[round % 5]
            await history.delete(scanID: target.id)
            #expect(!history.state.value.entries.contains { $0.id == target.id })
            // Undo at once (round 0, 3, …) or while the delete's reload is under way.
            if round % 3 != 0 { try await Task.sleep(for: .milliseconds(round % 4)) }
            await history.undoDelete(target)
            #expect(history.state.value.entries.contains { $0.id == target.id }, "round \(round): the scan is back at once")
            #expect(history.state.value.errorMessage == nil)
            // Whatever reloads were in flight, the list settles with every scan, in order.
            let settled = await waitUntil(history.state) { history.state.value.entries.map(\.id) == (try? database.read(HistoryPageRequest()).map(\.id)) && history.state.value.entries.count == 5 }
            #expect(settled != nil, "round \(round): the list settled without the restored scan")
        }
        #expect(try database.read(HistoryPageRequest()).count == 5)
    }

    @Test func undoTwiceRestoresOnce() async throws {
        let database = try AppDatabase.inMemory()
        let entry = try database.saveScan(of: .sample(), method: .manual)
        let history = HistoryStore(database: database)
        await history.reload()
        await history.delete(scanID: entry.id)
        await history.undoDelete(entry)
        await history.undoDelete(entry)
        #expect(history.state.value.errorMessage == nil)
        #expect(try database.read(HistoryPageRequest()).count == 1)
    }
}
