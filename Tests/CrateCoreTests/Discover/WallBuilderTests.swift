import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Crate Wall")
struct WallBuilderTests {
    /// Tiles per signal for 60 tiles, worked out by hand from the dial's data file.
    static let expected: [CrateDialPosition: [WallSignal: Int]] = [
        .myCrate: [.listeningHistory: 30, .recommendations: 15, .popularCharts: 6, .newReleases: 6, .wildCard: 3],
        .curated: [.listeningHistory: 18, .recommendations: 21, .popularCharts: 9, .newReleases: 6, .wildCard: 6],
        .mixed: [.listeningHistory: 12, .recommendations: 15, .popularCharts: 12, .newReleases: 12, .wildCard: 9],
        .deepDig: [.listeningHistory: 6, .recommendations: 18, .popularCharts: 6, .newReleases: 12, .wildCard: 18],
        .mystery: [.listeningHistory: 3, .recommendations: 6, .popularCharts: 6, .newReleases: 9, .wildCard: 36],
    ]

    @Test(arguments: CrateDialPosition.allCases)
    func eachDialPositionGivesItsCountsFor60Tiles(_ dial: CrateDialPosition) async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }

        let wall = try await world.builder().build(dial: dial, count: 60)

        #expect(wall.unavailable.isEmpty, "\(wall.unavailable)")
        #expect(wall.items.count == 60)
        #expect(wall.planned == Self.expected[dial])
        #expect(wall.counts == Self.expected[dial])
        #expect(Set(wall.items.map(\.releaseGroupID)).count == 60)
        // Every tile came from the signal it says.
        for item in wall.items {
            #expect(WallTestWorld.namespaces(of: item.signal).contains(WallTestWorld.namespace(of: item)), "\(item)")
        }
        // No run of one signal longer than the counts force.
        #expect(Self.longestRun(wall.items) <= WallMath.forcedRun(wall.counts), "\(wall.items.map(\.signal.rawValue))")
    }

    @Test func theDialFileHasASentencePerPosition() throws {
        let table = try CrateDialTable.standard()
        #expect(table.entries.map(\.position) == CrateDialPosition.allCases)
        #expect(table.defaultPosition == .mixed)
        for entry in table.entries {
            #expect(entry.sentence.hasSuffix(".") && !entry.title.isEmpty)
        }
    }

    @Test func aBrokenDialFileIsRefusedWithAReason() throws {
        #expect(throws: WallError.self) { try CrateDialTable.parse(Data("{".utf8)) }
        let missing = #"{"positions":[{"id":"mixed","title":"M","sentence":"S.","weights":{"wild-card":1}}]}"#
        #expect(throws: WallError.dataFileInvalid(name: "crate-dial.json", reason: "it must list my-crate exactly once")) { try CrateDialTable.parse(Data(missing.utf8)) }
        let unknown = #"{"positions":[{"id":"mixed","title":"M","sentence":"S.","weights":{"radio":1}}]}"#
        #expect(throws: WallError.dataFileInvalid(name: "crate-dial.json", reason: "it names an unknown signal \"radio\"")) { try CrateDialTable.parse(Data(unknown.utf8)) }
    }

    @Test func largestRemainderSplitsOddTotals() {
        let mixed: [(WallSignal, Double)] = [(.listeningHistory, 0.2), (.recommendations, 0.25), (.popularCharts, 0.2), (.newReleases, 0.2), (.wildCard, 0.15)]
        // 7 tiles: exact shares 1.4, 1.75, 1.4, 1.4, 1.05 → whole parts 5; the two left go to
        // the largest fractions: recommendations (.75), then listening history (.4, first in order).
        #expect(WallMath.counts(mixed, total: 7) == [.listeningHistory: 2, .recommendations: 2, .popularCharts: 1, .newReleases: 1, .wildCard: 1])
        for total in [0, 1, 2, 3, 13, 59, 61, 100] {
            #expect(WallMath.counts(mixed, total: total).values.reduce(0, +) == total)
        }
        #expect(WallMath.counts([(.wildCard, 0), (.newReleases, 3)], total: 4) == [.newReleases: 4])
    }

    @Test func theInterleaveNeverRunsLongerThanTheCountsForce() {
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<500 {
            var buckets: [(WallSignal, [Int])] = []
            var next = 0
            for signal in WallSignal.allCases {
                let n = Int.random(in: 0...40, using: &generator)
                buckets.append((signal, Array(next..<(next + n))))
                next += n
            }
            let order = WallMath.interleave(buckets)
            #expect(order.count == next && Set(order).count == next)
            let signalOf = Dictionary(uniqueKeysWithValues: buckets.flatMap { b in b.1.map { ($0, b.0) } })
            let counts = Dictionary(uniqueKeysWithValues: buckets.map { ($0.0, $0.1.count) })
            #expect(Self.longestRun(order.map { signalOf[$0]! }) <= WallMath.forcedRun(counts), "\(counts)")
            // Each bucket keeps its order.
            for (_, items) in buckets { #expect(order.filter(items.contains) == items) }
        }
        // 40 of 60 from one signal force runs of 2, never 3.
        let forced = WallMath.interleave([(.wildCard, Array(0..<40)), (.newReleases, Array(40..<60))])
        #expect(Self.longestRun(forced.map { $0 < 40 ? 0 : 1 }) == 2)
    }

    @Test func dislikedAlbumsNeverAppear() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let builder = try world.builder()
        let first = await builder.build(dial: .mixed, count: 60)
        // Dislike half of what the wall showed, across every signal.
        let disliked = Set(first.items.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.releaseGroupID))

        let second = await builder.build(dial: .mixed, count: 60, disliked: disliked)

        #expect(second.items.count == 60)
        #expect(second.items.allSatisfy { !disliked.contains($0.releaseGroupID) })
    }

    @Test func moreExcludesWhatIsShown() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let builder = try world.builder()
        let first = await builder.build(dial: .mixed, count: 60)
        let more = await builder.build(dial: .mixed, count: 60, excluding: Set(first.items.map(\.releaseGroupID)), page: 1)
        #expect(more.items.count == 60)
        #expect(Set(more.items.map(\.releaseGroupID)).isDisjoint(with: first.items.map(\.releaseGroupID)))
    }

    /// Faults a signal may meet; each is put on one signal's routes in turn.
    static let faults: [(String, FixtureResponse)] = [
        ("401", .json(ListenBrainzFixtures.badToken, status: 401, headers: ListenBrainzFixtures.rateLimitHeaders())),
        ("429", .text(ListenBrainzFixtures.tooManyRequests, status: 429, headers: ListenBrainzFixtures.rateLimitHeaders(remaining: 0, resetIn: 40))),
        ("204", FixtureResponse(status: 204, headers: ListenBrainzFixtures.rateLimitHeaders())),
        ("503", .json(ListenBrainzFixtures.serviceUnavailable, status: 503, headers: [("Retry-After", "0")])),
        ("truncated", .json(String(ListenBrainzFixtures.freshReleases(namespace: 1, count: 20).prefix(700)))),
        ("hang", .never),
    ]

    /// The time limit is the world's manual clock: it passes only for the hang, and only once
    /// every other signal's answer is in, so it can cut off nothing but the hang.
    @Test(.timeLimit(.minutes(10)), arguments: WallSignal.allCases)
    func eachSignalFailingInTurnStillFillsTheWall(_ failing: WallSignal) async throws {
        for (name, fault) in Self.faults {
            let world = try WallTestWorld()
            defer { world.server.stop() }
            for route in WallTestWorld.routes(of: failing) { world.server.route(route, responses: [fault]) }
            let answered = Dictionary(uniqueKeysWithValues: WallSignal.allCases.map { ($0, EventCounter()) })
            let builder = try world.builder(timeout: 5, answered: answered)
            let building = Task { await builder.build(dial: .mixed, count: 60) }
            if name == "hang" {
                // Each of the others has given all it will (by name: the hanging one may end on
                // its own request timeout), and the builder has taken it in: a signal's time limit
                // stops waiting once its answer is in, so only the hang's limit is still asleep.
                for signal in WallSignal.allCases where signal != failing { await answered[signal]?.wait(for: 1) }
                while world.deadlines.sleeperCount > 1 { try await Task.sleep(for: .milliseconds(1)) }
                world.deadlines.expireAll()
            }

            let wall = await building.value

            #expect(wall.items.count == 60, "\(failing) \(name): \(wall.counts)")
            #expect(!wall.items.contains { $0.signal == failing }, "\(failing) \(name)")
            if name == "429" {
                // ListenBrainz's limit is one for all its endpoints: a 429 defers the host, so the
                // other ListenBrainz signals asking after it may be left out too; the wall fills.
                #expect(wall.unavailable.map(\.signal).contains(failing), "\(failing) \(name): \(wall.unavailable)")
                #expect(wall.unavailable.allSatisfy { $0.signal == failing || $0.reason.contains("wait 40 seconds") }, "\(wall.unavailable)")
            } else {
                #expect(wall.unavailable.map(\.signal) == [failing], "\(failing) \(name): \(wall.unavailable)")
            }
            #expect(Set(wall.items.map(\.releaseGroupID)).count == 60)
            for reason in wall.unavailable.map(\.reason) {
                #expect(!reason.contains("HTTP/1.1") && !reason.contains("{"), "raw text reached the user: \(reason)")
            }
        }
    }

    @Test func aUserWithZeroListensGetsTheirOwnCrateOrTheOtherSignals() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        world.server.route("/1/stats/user/*", responses: [FixtureResponse(status: 204)])
        world.server.route("/1/user/*", responses: [.json(ListenBrainzFixtures.noListens)])
        world.server.route("/1/cf/recommendation/user/*", responses: [FixtureResponse(status: 204)])

        let empty = try await world.builder().build(dial: .myCrate, count: 60)
        #expect(empty.items.count == 60)
        #expect(Set(empty.unavailable.map(\.signal)) == [.listeningHistory, .recommendations])

        // With albums in the crate, they stand in for the listening history.
        for n in 0..<5 {
            try world.database.saveScan(of: Album(musicBrainzReleaseID: ListenBrainzFixtures.mbid(0x71, n), musicBrainzReleaseGroupID: ListenBrainzFixtures.mbid(0x70, n),
                                                  title: "Crate \(n)", artist: "Mine"), method: .vision)
        }
        let own = try await world.builder().build(dial: .myCrate, count: 60)
        #expect(own.items.count == 60)
        #expect(own.counts[.listeningHistory] == 5)
        #expect(own.items.filter { $0.signal == .listeningHistory }.allSatisfy { WallTestWorld.namespace(of: $0) == 0x70 })
    }

    @Test func withoutAListenBrainzAccountTheWallStillFills() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let wall = try await world.builder(user: nil).build(dial: .curated, count: 60)
        #expect(wall.items.count == 60)
        #expect(wall.unavailable.contains { $0.signal == .recommendations && $0.reason.contains("ListenBrainz user") })
        #expect(world.server.requests.allSatisfy { !$0.path.hasPrefix("/1/user") && !$0.path.hasPrefix("/1/stats/user") })
    }

    @Test func recommendationsAreMappedInBatchesAndRememberedInTheLibrary() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let builder = try world.builder()
        _ = await builder.build(dial: .curated, count: 60)
        let first = world.server.requests(path: "/1/metadata/recording/").count
        #expect(first >= 1 && first <= 3)  // 75 × 2 recordings asked, 50 a request
        _ = await builder.build(dial: .curated, count: 60)
        #expect(world.server.requests(path: "/1/metadata/recording/").count == first)  // all known now
    }

    @Test func wildCardEscapesTheGenreAndStaysAtOneMusicBrainzRequest() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let source = WildCardSource(musicBrainz: world.musicBrainz(), genres: ["r&b"], coverArt: world.server.url("/caa"), random: { _ in 0 })
        let items = try await source.albums(WallSourceRequest(count: 36))
        #expect(!items.isEmpty)
        let requests = world.server.requests(path: "/ws/2/release-group")
        #expect(requests.count == 1)
        #expect(requests[0].queryItem("query") == #"tag:"r&b" AND primarytype:album"#)
        #expect(WildCardSource.query(genre: #"a "b" \c"#) == #"tag:"a \"b\" \\c" AND primarytype:album"#)
        // Live and other secondary types are left out.
        #expect(items.count < 36)
    }

    @Test func newReleasesPutAlbumsAndEPsFirst() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let items = try await NewReleasesSource(listenBrainz: world.listenBrainz(), coverArt: world.server.url("/caa")).albums(WallSourceRequest(count: 100))
        let releases = try await world.listenBrainz().freshReleases()
        let types = Dictionary(uniqueKeysWithValues: releases.map { ($0.releaseGroupID, $0.primaryType ?? "") })
        let ranks = items.map { NewReleasesSource.rank(types[$0.releaseGroupID]) }
        #expect(ranks == ranks.sorted())
        #expect(items.first.map { types[$0.releaseGroupID] } == "Album")
    }

    @Test func aReleaseGroupWithoutArtGetsTheReleaseGroupAddress() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let items = try await PopularChartsSource(listenBrainz: world.listenBrainz(), coverArt: world.server.url("/caa")).albums(WallSourceRequest(count: 6))
        #expect(items[0].artURL?.path.hasSuffix("-250.jpg") == true)
        #expect(items[2].artURL?.path == "/caa/release-group/\(items[2].releaseGroupID.rawValue)/front-250")
    }

    static func longestRun<T: Equatable>(_ values: [T]) -> Int {
        var best = 0, run = 0
        var last: T?
        for value in values {
            run = value == last ? run + 1 : 1
            last = value
            best = max(best, run)
        }
        return best
    }

    static func longestRun(_ items: [WallItem]) -> Int { longestRun(items.map(\.signal)) }
}

/// A small deterministic generator (SplitMix64) for repeatable random cases.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
