import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Genre feeds over the live sources, pointed at a fixture server.
struct GenreTestWorld {
    let server: FixtureServer
    let wall: WallTestWorld
    let taxonomy: GenreTaxonomy

    init(fault: @escaping @Sendable (String) -> FixtureResponse? = { _ in nil }, favourites: Int = 6) throws {
        wall = try WallTestWorld()
        server = wall.server
        GenreWorld.install(on: server, fault: fault)
        taxonomy = try GenreTaxonomy.load()
        for n in 0..<favourites {
            try wall.database.rate(RatedAlbum(releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x77, n + 1)), title: "Loved \(n)", artist: "Seed"), .favourite, feedback: false)
        }
    }

    var searcher: GenreSearcher { GenreSearcher(musicBrainz: wall.musicBrainz(), coverArt: server.url("/caa")) }

    func sources(user: String? = "rob") -> [any GenreFeedSource] {
        let lb = wall.listenBrainz(user: user)
        let art = server.url("/caa")
        let searcher = self.searcher
        return [
            GenreFilteredSource(signal: .personalHistory, base: ListeningHistorySource(listenBrainz: lb, database: wall.database, coverArt: art), searcher: searcher),
            GenreFilteredSource(signal: .recommendations, base: RecommendationsSource(listenBrainz: lb, database: wall.database, coverArt: art), searcher: searcher),
            GenreFilteredSource(signal: .trending, base: PopularChartsSource(listenBrainz: lb, coverArt: art), searcher: searcher),
            GenreNewReleasesSource(searcher: searcher, now: { Date(timeIntervalSince1970: 1_795_000_000) }),
            SubcategoryRotationSource(searcher: searcher, random: { _ in 0 }),
            SeedExpansionSource(searcher: searcher, database: wall.database),
        ]
    }

    func builder(timeout: TimeInterval = 10) throws -> GenreFeedBuilder {
        GenreFeedBuilder(sources: sources(), table: try GenreDialTable.standard(), timeout: timeout, clock: wall.deadlines)
    }

    func scope(_ genre: String, _ subs: [String] = []) throws -> GenreScope {
        try GenreScope(taxonomy: taxonomy, genre: genre, subcategories: subs)
    }

    /// The MusicBrainz queries the server received.
    var queries: [String] { server.requests(path: "/ws/2/release-group").compactMap { $0.queryItem("query") } }
}

@Suite("Genre feeds")
struct GenreFeedTests {
    @Test func theGenreDialFileWeighsAllSixSignalsAtEveryPosition() throws {
        let table = try GenreDialTable.standard()
        for position in CrateDialPosition.allCases {
            #expect(Set(table.orderedWeights(position).map(\.0)) == Set(GenreSignal.allCases), "\(position)")
        }
        #expect(throws: WallError.dataFileInvalid(name: "genre-dial.json", reason: "it names an unknown signal \"radio\"")) {
            try GenreDialTable.parse(Data(#"{"positions":[{"id":"mixed","weights":{"radio":1}}]}"#.utf8))
        }
        #expect(throws: WallError.dataFileInvalid(name: "genre-dial.json", reason: "it must list my-crate exactly once")) {
            try GenreDialTable.parse(Data(#"{"positions":[{"id":"mixed","weights":{"trending":1}}]}"#.utf8))
        }
        #expect(throws: WallError.self) { try GenreDialTable.parse(Data("[".utf8)) }
    }

    @Test(arguments: CrateDialPosition.allCases)
    func aFeedFillsFromAllSixSignalsByTheDialsWeights(_ dial: CrateDialPosition) async throws {
        let world = try GenreTestWorld()
        defer { world.server.stop() }
        let feed = try await world.builder().build(try world.scope("rock"), dial: dial, count: 40)
        #expect(feed.unavailable.isEmpty, "\(feed.unavailable)")
        #expect(feed.items.count == 40)
        #expect(feed.counts == feed.planned)
        #expect(feed.planned == WallMath.counts(of: try GenreDialTable.standard().orderedWeights(dial), total: 40))
        #expect(Set(feed.items.map(\.item.releaseGroupID)).count == 40)
        // Filtered signals keep only what the genre filter let through (never a multiple of 3).
        for entry in feed.items where [.personalHistory, .recommendations, .trending].contains(entry.signal) {
            #expect((Int(entry.item.releaseGroupID.rawValue.suffix(12), radix: 16) ?? 0) % 3 != 0, "\(entry)")
        }
        for entry in feed.items { #expect(entry.item.signal == entry.signal.wallSignal) }
    }

    @Test func severalSubcategoriesAreSearchedSideBySideAndMergedWithoutDuplicates() async throws {
        let world = try GenreTestWorld()
        defer { world.server.stop() }
        let scope = try world.scope("Rock", ["post-rock", "Shoegaze"])
        #expect(scope.searchGroups.count == 2)
        let a = scope.searchGroups[0], b = scope.searchGroups[1]
        #expect(GenreWorld.start(of: a[0]) != GenreWorld.start(of: b[0]), "the fixture needs the two to differ")

        let items = try await world.searcher.merged(scope.searchGroups.map { GenreQuery.albums(tags: $0) }, limit: 50, signal: .wildCard)

        // Each search alone: what the server answers for it.
        func answer(_ tags: [String]) -> Set<Int> { Set((0..<50).map { GenreWorld.start(of: tags[0]) + $0 }.filter { $0 % 10 != 9 }) }
        let numbers = items.map { Int($0.releaseGroupID.rawValue.suffix(12), radix: 16)! }
        #expect(Set(numbers) == answer(a).union(answer(b)))
        #expect(numbers.count == Set(numbers).count, "a release group twice")
        #expect(!answer(a).isDisjoint(with: answer(b)), "the two answers overlap")
        #expect(Set(world.queries) == Set(scope.searchGroups.map { GenreQuery.albums(tags: $0) }))

        // Through the feed: New Releases ran one search per subcategory; nothing twice.
        let feed = try await world.builder().build(scope, dial: .mystery, count: 60)
        #expect(feed.items.count == 60)
        #expect(Set(feed.items.map(\.item.releaseGroupID)).count == 60)
        let fresh = world.queries.filter { $0.contains("firstreleasedate:") }
        #expect(fresh.count == 2 && Set(fresh.map { GenreWorld.tags(in: $0) }) == Set(scope.searchGroups))
        // Rotation stays inside the picked subcategories.
        let rotation = world.queries.filter { !$0.contains("firstreleasedate:") && !$0.hasPrefix("rgid:") && !$0.hasPrefix("arid:") }
        #expect(!rotation.isEmpty)
        #expect(rotation.allSatisfy { Set(GenreWorld.tags(in: $0)).isSubset(of: Set(scope.filterTags)) })
    }

    /// The fixture routes (or MusicBrainz queries) each signal depends on.
    static func fault(_ signal: GenreSignal, _ response: FixtureResponse, on server: FixtureServer) -> @Sendable (String) -> FixtureResponse? {
        switch signal {
        case .personalHistory:
            // The genre filter of the listening history (the crate's favourites would stand in
            // for a failed ListenBrainz, so the failure is put on the filter).
            return { $0.hasPrefix("rgid:") && ($0.contains("00000010-") || $0.contains("00000011-")) ? response : nil }
        case .recommendations: server.route("/1/cf/recommendation/user/*", responses: [response])
        case .trending: server.route("/1/stats/sitewide/release-groups", responses: [response])
        case .newReleases: return { $0.contains("firstreleasedate:") ? response : nil }
        case .subcategoryRotation: return { !$0.contains("firstreleasedate:") && !$0.hasPrefix("rgid:") && !$0.hasPrefix("arid:") ? response : nil }
        case .seedExpansion: return { $0.hasPrefix("arid:") ? response : nil }
        }
        return { _ in nil }
    }

    static let faults: [(String, FixtureResponse)] = [
        ("503", .json(ListenBrainzFixtures.serviceUnavailable, status: 503, headers: [("Retry-After", "0")])),
        ("truncated", .json(String(GenreWorld.search(ids: (0..<20).map { ListenBrainzFixtures.mbid(0x60, $0) }, total: 20).prefix(500)))),
        ("404", .notFound),
    ]

    @Test(arguments: GenreSignal.allCases)
    func eachSignalFailingInTurnStillFillsTheFeed(_ failing: GenreSignal) async throws {
        for (name, response) in Self.faults {
            let box = FaultBox()
            let world = try GenreTestWorld(fault: { box.fault?($0) })
            defer { world.server.stop() }
            box.fault = Self.fault(failing, response, on: world.server)

            let feed = try await world.builder().build(try world.scope("rock"), dial: .mixed, count: 40)

            #expect(feed.items.count == 40, "\(failing) \(name): \(feed.counts) \(feed.unavailable)")
            #expect(!feed.items.contains { $0.signal == failing }, "\(failing) \(name)")
            #expect(Array(feed.unavailable.keys) == [failing], "\(failing) \(name): \(feed.unavailable)")
            #expect(Set(feed.items.map(\.item.releaseGroupID)).count == 40)
            for reason in feed.unavailable.values {
                #expect(!reason.contains("HTTP/1.1") && !reason.contains("{") && !reason.isEmpty, "raw text reached the user: \(reason)")
            }
        }
    }

    @Test func aGenreWithNoResultsGivesAnEmptyFeedWithEveryReason() async throws {
        let world = try GenreTestWorld()
        defer { world.server.stop() }
        let nothing = GenreEntry(id: "nothing", name: "Nothing", musicBrainz: [GenreWorld.emptyTag])
        let genre = Genre(entry: nothing, subcategories: [GenreEntry(id: "nothing-sub", name: "Nothing Sub", musicBrainz: [GenreWorld.emptyTag])])
        let feed = try await GenreFeedBuilder(sources: world.sources(), table: GenreDialTable.standard(), clock: world.wall.deadlines)
            .build(GenreScope(genre: genre), dial: .mixed, count: 30)
        #expect(feed.unavailable[.newReleases] == WallError.empty.errorDescription)
        #expect(feed.unavailable[.subcategoryRotation] == WallError.empty.errorDescription)
        #expect(feed.items.allSatisfy { ![.newReleases, .subcategoryRotation].contains($0.signal) })

        // Every signal empty: an empty feed, six reasons, no hang.
        let empty = try GenreTestWorld(fault: { $0.hasPrefix("rgid:") || $0.hasPrefix("arid:") ? .json(GenreWorld.search(ids: [], total: 0)) : nil })
        defer { empty.server.stop() }
        let none = try await empty.builder().build(GenreScope(genre: genre), dial: .mixed, count: 30)
        #expect(none.items.isEmpty)
        #expect(Set(none.unavailable.keys) == Set(GenreSignal.allCases))
        #expect(none.unavailable.values.allSatisfy { $0 == WallError.empty.errorDescription })
    }

    @Test func dislikedAndShownAlbumsNeverAppear() async throws {
        let world = try GenreTestWorld()
        defer { world.server.stop() }
        let builder = try world.builder()
        let scope = try world.scope("rock")
        let first = await builder.build(scope, dial: .mixed, count: 40)
        let disliked = Set(first.items.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.item.releaseGroupID))
        let second = await builder.build(scope, dial: .mixed, count: 40, disliked: disliked)
        #expect(second.items.count == 40)
        #expect(second.items.allSatisfy { !disliked.contains($0.item.releaseGroupID) })
    }

    @Test func tagsWithLuceneSpecialCharactersReachMusicBrainzIntact() async throws {
        let world = try GenreTestWorld()
        defer { world.server.stop() }
        let hard = ["drum & bass", "r&b", "post-rock", "ac/dc", "sunn o)))", "a \"quoted\" tag"]
        let genre = Genre(entry: GenreEntry(id: "hard", name: "Hard", musicBrainz: hard),
                          subcategories: hard.enumerated().map { GenreEntry(id: "s\($0.offset)", name: "S\($0.offset)", musicBrainz: [$0.element]) })
        let scope = GenreScope(genre: genre, selected: genre.subcategories)
        let feed = try await world.builder().build(scope, dial: .mixed, count: 30)
        #expect(feed.items.count == 30)
        let queries = world.queries
        #expect(!queries.isEmpty)
        for query in queries where !query.hasPrefix("arid:") {
            // Every tag term parses back to one of the tags, and nothing else is a tag.
            let tags = GenreWorld.tags(in: query)
            #expect(!tags.isEmpty && Set(tags).isSubset(of: Set(hard)), "\(query)")
        }
        // Each subcategory's own search went out with its tag escaped.
        for tag in hard {
            #expect(queries.contains(GenreQuery.newReleases(tags: [tag], from: "2026-08-20")), "\(tag)")
        }
        #expect(GenreQuery.tags(["drum & bass", "ac/dc"]) == #"(tag:"drum \& bass" OR tag:"ac\/dc")"#)
    }

    @Test func unknownGenresAndSubcategoriesAreNamedInTheError() throws {
        let taxonomy = try GenreTaxonomy.load()
        #expect(throws: GenreFeedError.unknownGenre("polka-core")) { try GenreScope(taxonomy: taxonomy, genre: "polka-core") }
        #expect(throws: GenreFeedError.unknownSubcategory(genre: "Rock", subcategory: "bebop")) { try GenreScope(taxonomy: taxonomy, genre: "rock", subcategories: ["bebop"]) }
        let scope = try GenreScope(taxonomy: taxonomy, genre: "ROCK", subcategories: ["post rock", "post-rock"])
        #expect(scope.selected.map(\.id) == ["post-rock"])
        #expect(scope.title == "Rock: Post-Rock")
    }

    @Test func aSubcategoryInPlaceOfTheGenreMeansItsGenreWithItPicked() throws {
        let taxonomy = try GenreTaxonomy.load()
        // `crate genres` lists "Post-Rock [post-rock]" under Rock: its id and its name both work.
        for name in ["post-rock", "Post-Rock", "post rock"] {
            let scope = try GenreScope(taxonomy: taxonomy, genre: name)
            #expect(scope.genre.id == "rock", "\(name)")
            #expect(scope.selected.map(\.id) == ["post-rock"], "\(name)")
            #expect(scope.title == "Rock: Post-Rock", "\(name)")
        }
        // Further --sub options are the same genre's; another genre's subcategory is an error.
        let both = try GenreScope(taxonomy: taxonomy, genre: "post-rock", subcategories: ["shoegaze", "post-rock"])
        #expect(both.selected.map(\.id) == ["post-rock", "shoegaze"])
        #expect(throws: GenreFeedError.unknownSubcategory(genre: "Rock", subcategory: "bebop")) {
            try GenreScope(taxonomy: taxonomy, genre: "post-rock", subcategories: ["bebop"])
        }
        // A genre's own name still wins over a subcategory's.
        #expect(try GenreScope(taxonomy: taxonomy, genre: "rock").selected.isEmpty)
    }
}

/// A fault set after the world is built (the routes need the server first).
final class FaultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (@Sendable (String) -> FixtureResponse?)?
    var fault: (@Sendable (String) -> FixtureResponse?)? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
