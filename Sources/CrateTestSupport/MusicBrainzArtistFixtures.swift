import Foundation
import Synchronization

/// MusicBrainz artist search and release-group browse answers in WS/2's real shapes
/// (`/ws/2/artist?query=`, `/ws/2/release-group?artist=&type=album|ep&inc=artist-credits`), and
/// synthetic catalogues of any size for paging tests.
public enum MusicBrainzArtistFixtures {
    /// The Seattle band and the 1960s British band, both called Nirvana (real MBIDs).
    public static let nirvanaUS = "5b11f4ce-a62d-471e-81fc-a69a8278c7da"
    public static let nirvanaUK = "9282c8b4-ca0b-4c6b-b7e3-4f7762dfc4d6"

    /// A search for "Nirvana": two namesakes at score 100, then weaker matches; one entry has an
    /// id that is no MBID and one a score sent as a string (older responses did).
    public static let nirvanaSearch = """
    {"created":"2026-05-26T01:37:12.691Z","count":5,"offset":0,"artists":[
     {"id":"\(nirvanaUS)","type":"Group","type-id":"e431f5f6-b5d2-343d-8b36-72607fffb74b","score":100,"name":"Nirvana","sort-name":"Nirvana",
      "country":"US","area":{"id":"489ce91b-6658-3307-9877-795b68554c98","type":"Country","name":"United States","sort-name":"United States"},
      "disambiguation":"90s US grunge band","life-span":{"begin":"1987","end":"1994-04-05","ended":true},
      "tags":[{"count":12,"name":"grunge"}]},
     {"id":"\(nirvanaUK)","type":"Group","score":"100","name":"Nirvana","sort-name":"Nirvana","country":"GB",
      "disambiguation":"60s band from the UK","life-span":{"begin":"1967","ended":null}},
     {"id":"not-an-mbid","score":90,"name":"Nirvana"},
     {"id":"c6c8a2f8-0b9c-4a4f-8d7e-3a1b2c3d4e5f","type":"Person","score":71,"name":"Nirvana Savoury","sort-name":"Savoury, Nirvana","life-span":{"ended":null}},
     {"id":"d7d9b3a9-1cad-4b5a-9e8f-4b2c3d4e5f60","score":64,"name":"Nirvana 2002","type":"Group","country":"SE"}
    ]}
    """

    /// A search that finds one artist with exactly the name asked for.
    public static func singleArtistSearch(id: String, name: String, score: Int = 100) -> String {
        """
        {"created":"2026-05-26T01:37:12.691Z","count":2,"offset":0,"artists":[
         {"id":"\(id)","type":"Group","score":\(score),"name":\(json(name)),"sort-name":\(json(name)),"life-span":{"ended":null}},
         {"id":"e8eac4b0-2cbe-4c6b-9f90-5c3d4e5f6071","type":"Person","score":42,"name":\(json(name + " Tribute")),"sort-name":\(json(name + " Tribute"))}
        ]}
        """
    }

    public static let emptySearch = #"{"created":"2026-05-26T01:37:12.691Z","count":0,"offset":0,"artists":[]}"#

    /// One synthetic release group.
    public struct Group: Sendable, Equatable {
        public let id: String
        public let title: String
        public let primaryType: String
        public let secondaryTypes: [String]
        /// "" for undated, as MusicBrainz sends it.
        public let date: String

        public init(id: String, title: String, primaryType: String, secondaryTypes: [String], date: String) {
            self.id = id
            self.title = title
            self.primaryType = primaryType
            self.secondaryTypes = secondaryTypes
            self.date = date
        }
    }

    /// `count` release groups in no particular order (as MusicBrainz browses them): about one in
    /// seven an EP; live albums, compilations, remixes and soundtracks among them; dates as
    /// "YYYY", "YYYY-MM" and "YYYY-MM-DD"; every 17th undated.
    public static func catalogue(count: Int, seed: Int = 1) -> [Group] {
        let secondaries: [[String]] = [[], [], [], ["Live"], [], ["Compilation"], [], ["Remix"], [], ["Soundtrack"], [], ["Compilation", "Live"], []]
        return (0..<count).map { index in
            let mixed = (index &* 7919 &+ seed &* 104_729) % max(count, 1)
            let year = 1960 + (mixed * 61) % 66
            let month = 1 + (mixed % 12)
            let day = 1 + (mixed % 28)
            let date: String
            switch index % 17 {
            case 16: date = ""
            case 3, 9: date = String(format: "%04d", year)
            case 5, 12: date = String(format: "%04d-%02d", year, month)
            default: date = String(format: "%04d-%02d-%02d", year, month, day)
            }
            return Group(id: releaseGroupID(index, seed: seed), title: String(format: "Record %04d", index),
                         primaryType: index % 7 == 6 ? "EP" : "Album", secondaryTypes: secondaries[index % secondaries.count], date: date)
        }
    }

    /// A UUID-shaped id for the `index`th synthetic release group.
    public static func releaseGroupID(_ index: Int, seed: Int = 1) -> String {
        String(format: "%08x-%04x-4%03x-8%03x-%012x", 0x5eed0000 + seed, index & 0xffff, index % 0xfff, seed % 0xfff, index)
    }

    /// One browse page in WS/2's shape, with each group credited to the artist.
    public static func browsePage(_ groups: [Group], total: Int? = nil, offset: Int, artistID: String, artistName: String) -> String {
        let credit = #"[{"name":\#(json(artistName)),"joinphrase":"","artist":{"id":"\#(artistID)","name":\#(json(artistName)),"sort-name":\#(json(artistName)),"disambiguation":""}}]"#
        let items = groups.map { group in
            """
            {"id":"\(group.id)","title":\(json(group.title)),"primary-type":"\(group.primaryType)","primary-type-id":"f529b476-6e62-324f-b0aa-1f3e33d313fc",\
            "secondary-types":[\(group.secondaryTypes.map(json).joined(separator: ","))],"secondary-type-ids":[],\
            "first-release-date":"\(group.date)","disambiguation":"","artist-credit":\(credit)}
            """
        }
        return #"{"release-group-count":\#(total ?? groups.count),"release-group-offset":\#(offset),"release-groups":[\#(items.joined(separator: ","))]}"#
    }

    /// Serves `groups` from `/ws/2/release-group` a page at a time, honouring `offset` and
    /// `limit` like MusicBrainz. `fault` may replace the answer to any request (it sees the
    /// request's offset and how many requests for that offset came before).
    public static func serveCatalogue(on server: FixtureServer, artistID: String, artistName: String, groups: [Group],
                                      fault: (@Sendable (_ offset: Int, _ attempt: Int) -> FixtureResponse?)? = nil) {
        let attempts = Mutex<[Int: Int]>([:])
        server.route("/ws/2/release-group") { request in
            guard request.queryItem("artist") == artistID else { return .json(MusicBrainzFixtures.notFound, status: 404) }
            let offset = Int(request.queryItem("offset") ?? "0") ?? 0
            let limit = min(Int(request.queryItem("limit") ?? "25") ?? 25, 100)
            let attempt = attempts.withLock { seen -> Int in
                seen[offset, default: 0] += 1
                return seen[offset]! - 1
            }
            if let fault, let response = fault(offset, attempt) { return response }
            let slice = offset < groups.count ? Array(groups[offset..<min(groups.count, offset + limit)]) : []
            return .json(browsePage(slice, total: groups.count, offset: offset, artistID: artistID, artistName: artistName))
        }
    }

    /// MusicBrainz's rate-limit answer: 503 with `Retry-After`.
    public static func rateLimited(retryAfter seconds: Int) -> FixtureResponse {
        .json(MusicBrainzFixtures.rateLimited, status: 503, headers: [("Retry-After", String(seconds))])
    }

    static func json(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
