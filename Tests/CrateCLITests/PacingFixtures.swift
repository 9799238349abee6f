import CrateCore
import CrateTestSupport
import Foundation
import Synchronization

/// A fixture server playing Anthropic, MusicBrainz and the Cover Art Archive for many different
/// albums: the n-th identification names "Pacing Album n" by "Pacing Artist n", MusicBrainz finds
/// it (keyed on the title in the search query) and looks it up, the archive has no art for it.
/// So every photo is a new album that needs a MusicBrainz search and a release lookup.
enum PacingFixtures {
    /// A valid MBID for album `n`.
    static func releaseID(_ n: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012d", n)
    }

    static func identification(_ n: Int) -> String {
        #"{"artist":"Pacing Artist \#(n)","album":"Pacing Album \#(n)","year":"1999","label":null,"readable_text":"PACING ALBUM \#(n)","text_confidence":"high","search_needed":false,"confidence":0.95}"#
    }

    static func search(_ n: Int) -> String {
        """
        {"count":1,"offset":0,"releases":[{"id":"\(releaseID(n))","score":100,"title":"Pacing Album \(n)","status":"Official",
          "artist-credit":[{"name":"Pacing Artist \(n)"}],"release-group":{"id":"\(releaseID(1000 + n))","primary-type":"Album","title":"Pacing Album \(n)"},
          "date":"1999","country":"GB"}]}
        """
    }

    static func lookup(_ id: String, n: Int) -> String {
        """
        {"id":"\(id)","title":"Pacing Album \(n)","status":"Official","date":"1999",
         "artist-credit":[{"name":"Pacing Artist \(n)","joinphrase":""}],
         "release-group":{"id":"\(releaseID(1000 + n))","primary-type":"Album","title":"Pacing Album \(n)"},
         "media":[{"position":1,"track-count":1,"tracks":[{"id":"t\(n)","number":"1","position":1,"title":"Track \(n)","length":200000,
           "recording":{"id":"\(releaseID(2000 + n))","title":"Track \(n)"}}]}]}
        """
    }

    /// A thread-safe counter for the handlers, which run on the server's threads.
    final class Counter: Sendable {
        private let value = Mutex(0)

        func next() -> Int {
            value.withLock { value in
                defer { value += 1 }
                return value
            }
        }
    }

    /// Routes for a new album per identification request, in order of arrival.
    static func serve(_ server: FixtureServer) {
        let identified = Counter()
        server.route("/v1/messages") { request in
            guard String(decoding: request.body, as: UTF8.self).contains("\"image\"") else {
                return .json(ProviderFixtures.anthropicMessage(ProviderFixtures.rumoursReview))
            }
            return .json(ProviderFixtures.anthropicMessage(identification(identified.next())))
        }
        server.route("/ws/2/release", answerSearch)
        server.route("/ws/2/release/*") { request in
            let id = String(request.path.dropFirst("/ws/2/release/".count))
            guard let n = Int(id.suffix(12)) else { return .notFound }
            return .json(lookup(id, n: n))
        }
        server.route("/caa/*", responses: [.notFound])
    }

    /// The search for album n, n taken from the query.
    @Sendable static func answerSearch(_ request: RecordedRequest) -> FixtureResponse {
        guard let n = number(in: request.queryItem("query") ?? "") else { return .json(#"{"releases":[]}"#) }
        return .json(search(n))
    }

    /// The album number in a search query (`release:"Pacing Album 7" AND …`).
    static func number(in query: String) -> Int? {
        guard let range = query.range(of: "Pacing Album ") else { return nil }
        return Int(query[range.upperBound...].prefix { $0.isNumber })
    }

    /// Five photos of five different covers (the album each becomes is decided by the server).
    static func photos(from first: Int) -> [String] {
        (first..<(first + 5)).map { ScanCommandTests.fixtures.appendingPathComponent(String(format: "photos/cover-%02d-photo-0.jpg", $0)).path }
    }
}
