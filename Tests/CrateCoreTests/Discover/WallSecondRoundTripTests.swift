@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// The wall is shown once every source's first answer is in; a source whose albums need a
/// second round trip (recommended recordings mapped to albums) fills its places afterwards, or
/// leaves them to the other signals. No clock is involved: the second round trip is held by a
/// gate the test opens.
@Suite("Crate Wall: second round trips")
struct WallSecondRoundTripTests {
    /// A gate the test opens with the second round trip's answer.
    actor Gate {
        private var answer: Result<[WallItem], Error>?
        private var waiters: [CheckedContinuation<Result<[WallItem], Error>, Never>] = []
        private(set) var asked = 0

        func wait() async throws -> [WallItem] {
            asked += 1
            if let answer { return try answer.get() }
            let result = await withCheckedContinuation { waiters.append($0) }
            return try result.get()
        }

        func open(_ result: Result<[WallItem], Error>) {
            answer = result
            for waiter in waiters { waiter.resume(returning: result) }
            waiters = []
        }
    }

    /// A source that answers at once with `items`.
    struct Immediate: WallSource {
        let signal: WallSignal
        let items: [WallItem]
        func albums(_ request: WallSourceRequest) async throws -> [WallItem] { items }
    }

    /// A source that answers at once with `known` and the rest through the gate.
    struct TwoRoundTrips: WallSource {
        let signal: WallSignal
        let known: [WallItem]
        let gate: Gate
        func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
            known + (try await gate.wait())
        }
        func answer(_ request: WallSourceRequest) async throws -> WallSourceAnswer {
            let gate = self.gate
            return WallSourceAnswer(items: known) { try await gate.wait() }
        }
    }

    static func items(_ signal: WallSignal, namespace: Int, _ range: Range<Int>) -> [WallItem] {
        range.map { n in
            WallItem(signal: signal, releaseGroupID: try! MBID(ListenBrainzFixtures.mbid(namespace, n)), title: "\(signal.rawValue) \(n)", artist: "A")
        }
    }

    static func namespace(of signal: WallSignal) -> Int {
        0x60 + WallSignal.allCases.firstIndex(of: signal)!
    }

    /// Every signal answers 100 albums at once, but recommendations knows only `known` of its
    /// albums before the gate opens.
    static func builder(gate: Gate, known: Int, timeout: TimeInterval = 60, clock: ManualClock = ManualClock()) throws -> WallBuilder {
        var sources: [any WallSource] = WallSignal.allCases.filter { $0 != .recommendations }.map {
            Immediate(signal: $0, items: items($0, namespace: namespace(of: $0), 0..<100))
        }
        sources.append(TwoRoundTrips(signal: .recommendations, known: items(.recommendations, namespace: namespace(of: .recommendations), 0..<known), gate: gate))
        return WallBuilder(sources: sources, table: try CrateDialTable.standard(), timeout: timeout, clock: clock)
    }

    static func isTruthful(_ items: [WallItem]) -> Bool {
        items.allSatisfy { Int($0.releaseGroupID.rawValue.prefix(8), radix: 16) == namespace(of: $0.signal) }
    }

    @Test(.timeLimit(.minutes(5)))
    func theWallIsReadyBeforeTheSecondRoundTripAndItsPlacesAreFilledInPlace() async throws {
        let gate = Gate()
        let builder = try Self.builder(gate: gate, known: 4)
        // Returns while the gate is still shut: the wall does not wait for the second round trip.
        let draft = await builder.start(dial: .mixed, count: 60)
        let ready = draft.ready
        #expect(draft.isPending)
        #expect(ready.pending == [.recommendations])
        #expect(ready.items.count == 60)
        #expect(ready.unavailable.isEmpty)
        #expect(ready.counts[.recommendations] == 4)
        // Every tile says the signal it really came from.
        #expect(Self.isTruthful(ready.items))
        #expect(Set(ready.items.map(\.releaseGroupID)).count == 60)

        await gate.open(.success(Self.items(.recommendations, namespace: Self.namespace(of: .recommendations), 4..<100)))
        let finished = await draft.complete()
        #expect(finished.pending.isEmpty)
        #expect(finished.items.count == 60)
        #expect(finished.counts == WallBuilderTests.expected[.mixed])
        #expect(Self.isTruthful(finished.items))
        #expect(Set(finished.items.map(\.releaseGroupID)).count == 60)
        // In place: only the stand-ins' places changed, and each now holds a recommendation.
        let changed = (0..<60).filter { ready.items[$0] != finished.items[$0] }
        #expect(changed.count == 11)
        for index in changed {
            #expect(ready.items[index].signal != .recommendations)
            #expect(finished.items[index].signal == .recommendations)
        }
        #expect(WallBuilderTests.longestRun(finished.items) <= WallMath.forcedRun(finished.counts))
    }

    @Test(.timeLimit(.minutes(5)))
    func aFailedSecondRoundTripLeavesItsShareToTheOthers() async throws {
        let gate = Gate()
        let draft = try await Self.builder(gate: gate, known: 0).start(dial: .mixed, count: 60)
        #expect(draft.ready.items.count == 60)
        #expect(draft.ready.counts[.recommendations] == nil)
        #expect(draft.ready.unavailable.isEmpty, "not unavailable while it may still answer")
        await gate.open(.failure(ListenBrainzError.server(status: 503)))
        let finished = await draft.complete()
        #expect(finished.items == draft.ready.items)
        #expect(finished.unavailable.map(\.signal) == [.recommendations])
        #expect(finished.unavailable.first?.reason == UserMessage.text(for: ListenBrainzError.server(status: 503)))
    }

    @Test(.timeLimit(.minutes(5)))
    func aSecondRoundTripThatNeverAnswersIsCutOffByTheWallsTimeLimit() async throws {
        let gate = Gate()  // never opened
        let clock = ManualClock()
        let draft = try await Self.builder(gate: gate, known: 2, timeout: 0.3, clock: clock).start(dial: .mixed, count: 60)
        // Every first answer is in; now the limit passes, for the second round trip too.
        clock.expireAll()
        let finished = await draft.complete()
        #expect(finished.items == draft.ready.items)
        #expect(finished.counts[.recommendations] == 2)
        #expect(finished.unavailable.isEmpty, "it gave two albums")
    }

    @Test(.timeLimit(.minutes(5)))
    func aShortSecondAnswerFillsWhatItCanAndDislikesStayOut() async throws {
        let gate = Gate()
        let ns = Self.namespace(of: .recommendations)
        let disliked = try MBID(ListenBrainzFixtures.mbid(ns, 10))
        let draft = try await Self.builder(gate: gate, known: 0).start(dial: .mixed, count: 60, disliked: [disliked])
        // Five albums come back, one of them disliked: four fill places, stand-ins keep the rest.
        await gate.open(.success(Self.items(.recommendations, namespace: ns, 10..<15)))
        let finished = await draft.complete()
        #expect(finished.items.count == 60)
        #expect(finished.counts[.recommendations] == 4)
        #expect(!finished.items.contains { $0.releaseGroupID == disliked })
        #expect(Set(finished.items.map(\.releaseGroupID)).count == 60)
    }

    @Test(.timeLimit(.minutes(5)))
    func theServiceStoresTheReadyWallThenFillsItInPlace() async throws {
        let gate = Gate()
        let database = try AppDatabase.inMemory()
        let service = WallService(database: database, builder: try Self.builder(gate: gate, known: 3), artwork: nil,
                                  feedback: FeedbackSender(database: database, listenBrainz: nil, musicBrainz: nil),
                                  sendsFeedback: false, listenBrainzUser: nil)
        let stored = Gate()
        let task = Task {
            try await service.refresh(dial: .mixed, count: 60) { ready in
                // The wall is in the library before the second round trip answers.
                let tiles = (try? database.read(StoredWallRequest())?.tiles.map(\.item)) ?? []
                Task { await stored.open(.success(tiles)) }
                #expect(ready.pending == [.recommendations])
            }
        }
        let shown = try await stored.wait()
        #expect(shown.count == 60)
        #expect(shown.filter { $0.signal == .recommendations }.count == 3)
        await gate.open(.success(Self.items(.recommendations, namespace: Self.namespace(of: .recommendations), 3..<100)))
        let finished = try await task.value
        let after = try #require(try database.read(StoredWallRequest()))
        #expect(after.tiles.map(\.item) == finished.items)
        #expect(finished.counts[.recommendations] == 15)
    }

    @Test func aFinishedWallDoesNotReplaceAWallThatChangedMeanwhile() throws {
        let database = try AppDatabase.inMemory()
        let first = Self.items(.popularCharts, namespace: 0x61, 0..<5)
        try database.saveWall(dial: .mixed, items: first, unavailable: [])
        let more = Self.items(.wildCard, namespace: 0x62, 0..<3)
        try database.saveWall(dial: .mixed, items: more, unavailable: [], append: true)
        let finished = Self.items(.recommendations, namespace: 0x63, 0..<5)
        #expect(try database.replaceWall(expecting: first.map(\.releaseGroupID), with: finished, unavailable: []) == false)
        #expect(try database.read(StoredWallRequest())?.tiles.map(\.item) == first + more)
        #expect(try database.replaceWall(expecting: (first + more).map(\.releaseGroupID), with: finished, unavailable: []))
        #expect(try database.read(StoredWallRequest())?.tiles.map(\.item) == finished)
    }
}
