import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// The one helper every store reads through. Each test waits on events (a delivered answer, a
/// held read, the feed's subscriber count), never on a sleep.
@Suite("Observed query")
@MainActor
struct ObservedQueryTests {
    /// Records what a query delivers, as a value tests can wait on.
    @MainActor
    final class Owner {
        let answers = ObservableValue<[String]>([])
        /// The parameter the next read captures (a store's shown album, its search text).
        var parameter = "first"
        var isShowingSomething = true
        let database: AppDatabase
        let gate: PageReadGate
        /// Gates of their own for reads with some parameters (to hold one read and not another).
        var gates: [String: PageReadGate] = [:]
        lazy var query = ObservedQuery<String>(database: database, tables: [Album.databaseTableName]) { [weak self] in
            self?.makeRead()
        } deliver: { [weak self] result in
            self?.answers.update { $0.append((try? result.get()) ?? "error") }
        }

        init(database: AppDatabase, holding held: Set<Int> = []) {
            self.database = database
            gate = PageReadGate(holding: held)
        }

        func makeRead() -> ObservedQuery<String>.Read? {
            guard isShowingSomething else { return nil }
            let (parameter, gate, database) = (parameter, gates[parameter] ?? gate, database)
            return {
                await gate.enter()
                return "\(parameter):\(try database.counts().albums)"
            }
        }
    }

    @Test func aNewerRequestWinsAndTheStaleAnswerIsDropped() async throws {
        let owner = Owner(database: try AppDatabase.inMemory(), holding: [1])
        let slow = Task { await owner.query.refresh() }
        await owner.gate.holding(1)  // The first read is under way.

        owner.parameter = "second"
        await owner.query.refresh()
        #expect(owner.answers.value == ["second:0"])

        await owner.gate.releaseAll()
        await slow.value
        #expect(owner.answers.value == ["second:0"], "the first read's late answer was dropped")
        #expect(owner.query.readCount == 2)
    }

    @Test func anOvertakenRefreshReturnsOnlyOnceTheNewerAnswerIsIn() async throws {
        let owner = Owner(database: try AppDatabase.inMemory())
        let (first, newer) = (PageReadGate(holding: [1]), PageReadGate(holding: [1]))
        owner.gates = ["first": first, "newer": newer]
        let overtaken = Task { @MainActor in
            await owner.query.refresh()
            return owner.answers.value
        }
        await first.holding(1)
        owner.parameter = "newer"
        let latest = Task { await owner.query.refresh() }
        await newer.holding(1)

        // The first read finishes while the newer one is still held: its caller keeps waiting.
        await first.releaseAll()
        await newer.releaseAll()
        #expect(await overtaken.value == ["newer:0"], "returned with the newer answer in place")
        await latest.value
        #expect(owner.answers.value == ["newer:0"])
    }

    @Test func aChangeInAWatchedTableReadsAgain() async throws {
        let db = try AppDatabase.inMemory()
        let owner = Owner(database: db)
        owner.query.start()
        #expect(await waitUntil(owner.answers) { owner.answers.value == ["first:0"] } != nil)

        try db.saveScan(of: .sample("Rumours"), method: .vision)
        #expect(await waitUntil(owner.answers) { owner.answers.value.last == "first:1" } != nil)
    }

    @Test func aChangeToAnotherTableDoesNotReadAgain() async throws {
        let db = try AppDatabase.inMemory()
        let owner = Owner(database: db, holding: [2])
        owner.query.start()
        #expect(await waitUntil(owner.answers) { owner.answers.value == ["first:0"] } != nil)

        // Read 2 (for the album write) is held while a table the query does not watch changes.
        try db.saveScan(of: .sample("Rumours"), method: .vision)
        await owner.gate.holding(1)
        try db.setWallDial(.mystery)
        await owner.gate.releaseAll()
        #expect(await waitUntil(owner.answers) { owner.answers.value.last == "first:1" } != nil)
        // A change announced during read 2 would have started read 3 before this line runs: the
        // loop takes the buffered element as soon as the answer is delivered, on this actor.
        #expect(owner.query.readCount == 2)
    }

    @Test func changingTheParametersReadsWithTheNewOnes() async throws {
        let db = try AppDatabase.inMemory()
        let owner = Owner(database: db)
        owner.query.start()
        #expect(await waitUntil(owner.answers) { owner.answers.value == ["first:0"] } != nil)

        owner.parameter = "album 7"
        await owner.query.refresh()
        #expect(owner.answers.value.last == "album 7:0")

        // Nothing to read (no album shown): no read, and the request still counts as the newest.
        owner.isShowingSomething = false
        await owner.query.refresh()
        #expect(owner.query.readCount == 2)
    }

    @Test func stopStopsReadingAndDropsTheAnswerUnderWay() async throws {
        let db = try AppDatabase.inMemory()
        let owner = Owner(database: db, holding: [2])
        owner.query.start()
        #expect(await waitUntil(owner.answers) { owner.answers.value == ["first:0"] } != nil)
        #expect(db.changeFeed.subscriberCount == 1)

        try db.saveScan(of: .sample("Rumours"), method: .vision)
        await owner.gate.holding(1)  // Read 2 is under way when the owner stops.
        owner.query.stop()
        #expect(!owner.query.isRunning)
        await owner.gate.releaseAll()
        #expect(await waitFor { db.changeFeed.subscriberCount == 0 } != nil)

        // Nobody listens any more, so this write cannot start a read.
        try db.saveScan(of: .sample("Tusk"), method: .vision)
        #expect(owner.query.readCount == 2)
        #expect(owner.answers.value == ["first:0"], "read 2's answer was dropped")
    }

    @Test func releasingTheOwnerEndsTheSubscription() async throws {
        let db = try AppDatabase.inMemory()
        var owner: Owner? = Owner(database: db)
        owner?.query.start()
        let answers = try #require(owner?.answers)
        #expect(await waitUntil(answers) { answers.value == ["first:0"] } != nil)
        owner = nil
        #expect(await waitFor { db.changeFeed.subscriberCount == 0 } != nil)
    }
}
