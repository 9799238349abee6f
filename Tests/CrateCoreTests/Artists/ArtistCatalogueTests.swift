import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// The artist catalogue against the loopback MusicBrainz: every page, oldest first, the
/// secondary-type rule, paging edge cases and faults, and the SQLite cache.
@Suite("Artist catalogue")
struct ArtistCatalogueTests {
    static let artistID = "65f4f0c5-ef9e-490c-aee3-909e7ae6b2ab"
    static let artistName = "Sunn O)))"

    struct Harness {
        let server: FixtureServer
        let clock: TestClock
        let timestamps: TimestampingHTTPClient
        let database: AppDatabase
        let service: ArtistCatalogueService
        let client: MusicBrainzClient

        init(database: AppDatabase? = nil) throws {
            server = try FixtureServer()
            clock = TestClock()
            timestamps = TimestampingHTTPClient(base: CurlHTTPClient(), clock: clock)
            let http = ResilientHTTPClient(base: timestamps, policy: .musicBrainz, limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
            client = MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "mailto:test@example.org")
            let database = try database ?? AppDatabase.inMemory()
            self.database = database
            let clock = self.clock
            service = ArtistCatalogueService(client: client, database: database, now: { clock.now() })
        }

        var browseRequests: [RecordedRequest] { server.requests(path: "/ws/2/release-group") }
        var offsets: [Int] { browseRequests.compactMap { $0.queryItem("offset").flatMap(Int.init) } }

        func serve(_ groups: [MusicBrainzArtistFixtures.Group],
                   fault: (@Sendable (_ offset: Int, _ attempt: Int) -> FixtureResponse?)? = nil) {
            MusicBrainzArtistFixtures.serveCatalogue(on: server, artistID: ArtistCatalogueTests.artistID, artistName: ArtistCatalogueTests.artistName,
                                                     groups: groups, fault: fault)
        }
    }

    static var id: MBID { try! MBID(artistID) }

    /// The rules every complete catalogue must keep, checked against what the server holds.
    static func expectComplete(_ catalogue: ArtistCatalogue, matches groups: [MusicBrainzArtistFixtures.Group]) {
        #expect(catalogue.isComplete)
        #expect(catalogue.total == groups.count)
        #expect(catalogue.releaseGroups.count == groups.count)
        #expect(Set(catalogue.releaseGroups.map(\.id.rawValue)) == Set(groups.map(\.id)), "a release group is missing or duplicated")
        // Oldest first, undated last.
        let dates = catalogue.releaseGroups.map(\.firstReleaseDate)
        let dated = dates.prefix { $0 != nil }.compactMap { $0 }
        #expect(dated == dated.sorted())
        #expect(dates.dropFirst(dated.count).allSatisfy { $0 == nil }, "an undated release group sorts before a dated one")
        #expect(dated.count == groups.filter { !$0.date.isEmpty }.count)
        // Secondary-type rule: live, compilation, remix, soundtrack… in their own section.
        let byID = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0) })
        for entry in catalogue.releaseGroups {
            let source = byID[entry.id.rawValue]!
            let expected: CatalogueSection = !source.secondaryTypes.isEmpty ? .other : (source.primaryType == "EP" ? .eps : .albums)
            #expect(entry.section == expected, "\(entry.title): \(source.primaryType) \(source.secondaryTypes)")
            #expect(entry.secondaryTypes == source.secondaryTypes)
        }
        let sectioned = catalogue.sections.flatMap(\.entries)
        #expect(sectioned.count == groups.count)
        for (_, entries) in catalogue.sections {
            #expect(entries == entries.sorted(by: ReleaseGroupEntry.oldestFirst))
        }
    }

    @Test func aTwoHundredFiftyReleaseGroupArtistIsCompleteOldestFirstInThreePacedRequests() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        h.serve(groups)

        let catalogue = try await h.service.catalogue(Self.id)

        Self.expectComplete(catalogue, matches: groups)
        #expect(catalogue.name == Self.artistName)
        #expect(Set(catalogue.sections.map(\.section)) == [.albums, .eps, .other])
        #expect(h.offsets == [0, 100, 200])
        for request in h.browseRequests {
            #expect(request.queryItem("artist") == Self.artistID)
            #expect(request.queryItem("type") == "album|ep")
            #expect(request.queryItem("limit") == "100")
            #expect(request.queryItem("inc") == "artist-credits")
            #expect(request.headers["user-agent"]?.hasPrefix("Crate/") == true)
        }
        // Through the MusicBrainz limiter: departures at least 1.1 s apart.
        let times = h.timestamps.sendTimes
        #expect(times.count == 3)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= 1.1 - 1e-9) }

        // A second visit is the cache: no request, the same page.
        let again = try await h.service.catalogue(Self.id)
        #expect(again == catalogue)
        #expect(h.browseRequests.count == 3)
        // …and offline too.
        let offline = ArtistCatalogueService(client: nil, database: h.database)
        #expect(try await offline.catalogue(Self.id) == catalogue)
    }

    @Test func anArtistWithNoReleaseGroupsIsOneRequestAndAnEmptyCompletePage() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        h.serve([])

        let catalogue = try await h.service.catalogue(Self.id, name: "Nobody Yet")

        #expect(catalogue.releaseGroups.isEmpty && catalogue.sections.isEmpty)
        #expect(catalogue.isComplete && catalogue.total == 0)
        #expect(catalogue.name == "Nobody Yet")
        #expect(h.offsets == [0])
    }

    @Test func twoThousandReleaseGroupsArePagedToTheEnd() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 2000, seed: 7)
        h.serve(groups)

        let catalogue = try await h.service.catalogue(Self.id)

        Self.expectComplete(catalogue, matches: groups)
        #expect(h.offsets == Array(stride(from: 0, to: 2000, by: 100)))
    }

    @Test func aCountThatPromisesMoreThanThePagesHoldEndsAtTheFirstEmptyPage() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 150)
        h.server.route("/ws/2/release-group") { request in
            let offset = Int(request.queryItem("offset") ?? "0") ?? 0
            let slice = offset < groups.count ? Array(groups[offset..<min(groups.count, offset + 100)]) : []
            return .json(MusicBrainzArtistFixtures.browsePage(slice, total: 5000, offset: offset, artistID: Self.artistID, artistName: Self.artistName))
        }

        let catalogue = try await h.service.catalogue(Self.id)

        #expect(catalogue.releaseGroups.count == 150)
        #expect(h.offsets == [0, 100, 150])
    }

    @Test func a503WithRetryAfterMidPagingIsWaitedOutAndNothingIsDuplicated() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        h.serve(groups) { offset, attempt in
            offset == 100 && attempt == 0 ? MusicBrainzArtistFixtures.rateLimited(retryAfter: 3) : nil
        }

        let catalogue = try await h.service.catalogue(Self.id)

        Self.expectComplete(catalogue, matches: groups)
        #expect(h.offsets == [0, 100, 100, 200])
        #expect(h.clock.sleeps.contains { $0 >= 3 - 1e-9 }, "Retry-After was not honoured: \(h.clock.sleeps)")
    }

    @Test func aFetchStoppedMidPagingKeepsItsPagesAndTheNextOneResumes() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        // Still busy after the one retry: the fetch gives up at the second page.
        h.serve(groups) { offset, attempt in
            offset == 100 && attempt < 2 ? MusicBrainzArtistFixtures.rateLimited(retryAfter: 1) : nil
        }

        await #expect(throws: MusicBrainzError.busy) { try await h.service.catalogue(Self.id) }
        let partial = try #require(try h.database.read(ArtistCatalogueRequest(Self.id)))
        #expect(!partial.isComplete)
        #expect(partial.releaseGroups.count == 100)
        #expect(partial.total == 250)

        let catalogue = try await h.service.catalogue(Self.id)

        Self.expectComplete(catalogue, matches: groups)
        // The first page was fetched once; the fetch resumed at offset 100.
        #expect(h.offsets == [0, 100, 100, 100, 200])
    }

    @Test func aLongRetryAfterMidPagingFailsFastAndResumesAfterTheWait() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        h.serve(groups) { offset, attempt in
            offset == 200 && attempt == 0 ? MusicBrainzArtistFixtures.rateLimited(retryAfter: 120) : nil
        }

        do {
            _ = try await h.service.catalogue(Self.id)
            Issue.record("a two-minute Retry-After was sat out inside the call")
        } catch let error as MusicBrainzError {
            guard case .mustWait(let seconds) = error else { Issue.record("\(error)"); return }
            #expect(seconds > 100)
        }
        #expect(try h.database.read(ArtistCatalogueRequest(Self.id))?.releaseGroups.count == 200)

        h.clock.advance(by: 121)
        let catalogue = try await h.service.catalogue(Self.id)
        Self.expectComplete(catalogue, matches: groups)
        #expect(h.offsets == [0, 100, 200, 200])
    }

    @Test func aMalformedPageLeavesTheCacheAsItWas() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 150)
        h.serve(groups) { offset, _ in offset == 100 ? .json(#"{"release-group-count":150,"release-groups":[{"id":"#, status: 200) : nil }

        await #expect(throws: MusicBrainzError.self) { try await h.service.catalogue(Self.id) }
        let partial = try #require(try h.database.read(ArtistCatalogueRequest(Self.id)))
        #expect(partial.releaseGroups.count == 100 && !partial.isComplete)
    }

    @Test func anUnknownArtistIdSaysSo() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        h.serve([])
        let stranger = try MBID("0000aaaa-0000-4000-8000-000000000000")

        await #expect(throws: ArtistCatalogueError.noSuchArtist(stranger)) { try await h.service.catalogue(stranger) }
    }

    @Test func anUndatedReleaseGroupSortsLastAndBadDatesCountAsUndated() throws {
        func entry(_ title: String, _ date: String?) throws -> ReleaseGroupEntry {
            ReleaseGroupEntry(id: try MBID(MusicBrainzArtistFixtures.releaseGroupID(title.count + Int(title.unicodeScalars.first!.value))),
                              title: title, primaryType: "Album", secondaryTypes: [], firstReleaseDate: date)
        }
        let undated = try entry("Z undated", "")
        let junk = try entry("Y junk", "19xx")
        let later = try entry("B later", "1994-04")
        let year = try entry("C year", "1977")
        let day = try entry("D day", "1977-02-04")
        let catalogue = ArtistCatalogue(artistID: Self.id, name: nil, releaseGroups: [undated, later, junk, day, year], total: 5, isComplete: true, fetchedAt: nil)

        #expect(catalogue.releaseGroups.map(\.title) == ["C year", "D day", "B later", "Y junk", "Z undated"])
        #expect(undated.firstReleaseDate == nil && junk.firstReleaseDate == nil && undated.year == nil)
        #expect(day.year == "1977")
        #expect(day.coverURL(base: URL(string: "https://coverartarchive.org")!).absoluteString
            == "https://coverartarchive.org/release-group/\(day.id.rawValue)/front-250")
    }

    @Test func aRefreshDropsReleaseGroupsMusicBrainzNoLongerHas() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 120)
        h.serve(groups)
        _ = try await h.service.catalogue(Self.id)
        h.clock.advance(by: 10)
        let fewer = Array(groups.dropFirst(30))
        h.serve(fewer)

        let refreshed = try await h.service.catalogue(Self.id, refresh: true)

        Self.expectComplete(refreshed, matches: fewer)
    }

    @Test func namesakesAreRankedAndNeverMerged() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        h.server.route("/ws/2/artist", responses: [.json(MusicBrainzArtistFixtures.nirvanaSearch)])

        let resolution = try await h.service.resolve(name: "nirvana")

        guard case .ambiguous(let candidates) = resolution else { Issue.record("\(resolution)"); return }
        #expect(candidates.prefix(2).map(\.id.rawValue) == [MusicBrainzArtistFixtures.nirvanaUS, MusicBrainzArtistFixtures.nirvanaUK])
        #expect(candidates.map(\.score) == candidates.map(\.score).sorted(by: >))
        #expect(candidates.count == 4)  // the entry without a valid id is dropped
        #expect(candidates[0].details == "Group, US, 1987–1994 (90s US grunge band)")
        #expect(candidates[1].details == "Group, GB, from 1967 (60s band from the UK)")
        #expect(h.server.requests.first?.queryItem("query") == #"artist:"nirvana""#)

        // Each namesake has its own catalogue.
        MusicBrainzArtistFixtures.serveCatalogue(on: h.server, artistID: MusicBrainzArtistFixtures.nirvanaUK, artistName: "Nirvana",
                                                 groups: MusicBrainzArtistFixtures.catalogue(count: 2, seed: 9))
        let uk = try await h.service.catalogue(candidates[1].id, name: candidates[1].name)
        #expect(uk.releaseGroups.count == 2)
        #expect(try h.database.read(ArtistCatalogueRequest(candidates[0].id)) == nil)
    }

    @Test func aNameOnlyOneArtistCarriesOpensThatArtist() async throws {
        let h = try Harness()
        defer { h.server.stop() }
        h.server.route("/ws/2/artist", responses: [
            .json(MusicBrainzArtistFixtures.singleArtistSearch(id: Self.artistID, name: Self.artistName)),
            .json(MusicBrainzArtistFixtures.emptySearch),
        ])

        let resolution = try await h.service.resolve(name: "SUNN O)))")

        guard case .unique(let artist) = resolution else { Issue.record("\(resolution)"); return }
        #expect(artist.id == Self.id && artist.name == Self.artistName)
        let request = try #require(h.server.requests(path: "/ws/2/artist").first)
        #expect(request.queryItem("query") == #"artist:"SUNN O)))""#)
        await #expect(throws: ArtistCatalogueError.noArtistNamed("Nobody")) { try await h.service.resolve(name: "Nobody") }
    }
}
