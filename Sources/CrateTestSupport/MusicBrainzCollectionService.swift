import CrateCore
import Foundation
import Synchronization

/// A MusicBrainz collection service in WS/2's real shapes, with state, on a `FixtureServer`:
/// HTTP Digest (realm `musicbrainz.org`, qop `auth`, MD5) checked as the server checks it,
/// `GET /ws/2/collection`, the browse `GET /ws/2/release?collection=…` 100 a page, and
/// `PUT`/`DELETE /ws/2/collection/{id}/releases/{mbid;…}?client=…` (400 without `client`, 404 for
/// another user's or an unknown collection). Two Crates pointed at one service share it.
public final class MusicBrainzCollectionService: Sendable {
    public struct Release: Sendable {
        public var id: String
        public var title: String
        public var artist: String
        public var groupID: String

        public init(id: String, title: String, artist: String, groupID: String) {
            self.id = id
            self.title = title
            self.artist = artist
            self.groupID = groupID
        }
    }

    private struct State {
        var collections: [String: (name: String, releases: [String])] = [:]
        var catalogue: [String: Release] = [:]
        var nonces: Set<String> = []
        /// Answers to send instead of the real one, first in first out (503s, say).
        var faults: [FixtureResponse] = []
        var edits = 0
    }

    public let user: String
    public let password: String
    private let state = Mutex(State())

    public init(server: FixtureServer, user: String = "digger", password: String = "s3cret pass") {
        self.user = user
        self.password = password
        server.route("/ws/2/collection*") { [self] request in answer(request) }
        server.route("/ws/2/release") { [self] request in answer(request) }
    }

    /// `base` for `Endpoints.musicBrainz`.
    public static func endpoint(_ server: FixtureServer) -> URL { server.url("/ws/2") }

    public func addCollection(id: String, name: String, releases: [Release] = []) {
        state.withLock { state in
            for release in releases { state.catalogue[release.id] = release }
            state.collections[id] = (name, releases.map(\.id))
        }
    }

    /// Makes `release` known to the service (so a PUT of it is kept, as MusicBrainz keeps only
    /// releases it has).
    public func know(_ releases: [Release]) {
        state.withLock { state in for release in releases { state.catalogue[release.id] = release } }
    }

    public func releases(in collection: String) -> [String] {
        state.withLock { $0.collections[collection]?.releases ?? [] }
    }

    /// The next requests get these answers (after the Digest check), one each.
    public func fail(with responses: [FixtureResponse]) {
        state.withLock { $0.faults += responses }
    }

    /// PUTs and DELETEs accepted so far.
    public var edits: Int { state.withLock { $0.edits } }

    /// A release with a made-up but valid id, numbered.
    public static func release(_ number: Int, artist: String = "Fixture Artist") -> Release {
        let hex = String(format: "%012x", number)
        return Release(id: "aaaaaaaa-bbbb-4ccc-8ddd-\(hex)", title: "Record \(number)", artist: artist, groupID: "bbbbbbbb-cccc-4ddd-8eee-\(hex)")
    }

    // MARK: - Answers

    private func answer(_ request: RecordedRequest) -> FixtureResponse {
        let path = request.path.replacingOccurrences(of: "%3B", with: ";").replacingOccurrences(of: "%3b", with: ";")
        let isBrowse = path == "/ws/2/release"
        // A browse of a collection needs no sign-in when it is public; these are all private.
        guard authorised(request) else { return challenge() }
        if let fault = state.withLock({ $0.faults.isEmpty ? nil : $0.faults.removeFirst() }) { return fault }
        if isBrowse { return browse(request) }
        let parts = path.split(separator: "/").map(String.init)   // ws, 2, collection, {id}, releases, {list}
        if parts.count == 3, request.method == "GET" { return list() }
        guard parts.count == 6, parts[4] == "releases", ["PUT", "DELETE"].contains(request.method) else {
            return .json(#"{"error":"Invalid resource."}"#, status: 400)
        }
        guard request.queryItem("client")?.isEmpty == false else {
            return .json(#"{"error":"You must provide information about your client, by the client query parameter."}"#, status: 400)
        }
        let id = parts[3]
        let mbids = parts[5].split(separator: ";").map { $0.lowercased() }
        return state.withLock { state -> FixtureResponse in
            guard var collection = state.collections[id] else { return .json(MusicBrainzFixtures.notFound, status: 404) }
            if request.method == "PUT" {
                for mbid in mbids where state.catalogue[mbid] != nil && !collection.releases.contains(mbid) { collection.releases.append(mbid) }
            } else {
                collection.releases.removeAll { mbids.contains($0) }
            }
            state.collections[id] = collection
            state.edits += 1
            return .json(#"{"message":"OK"}"#)
        }
    }

    private func list() -> FixtureResponse {
        let items = state.withLock { state in
            state.collections.sorted { $0.key < $1.key }.map { id, collection in
                #"{"id":"\#(id)","name":\#(Self.jsonString(collection.name)),"editor":"\#(user)","entity-type":"release","type":"Release collection","release-count":\#(collection.releases.count)}"#
            }
        }
        return .json(#"{"collection-count":\#(items.count),"collection-offset":0,"collections":[\#(items.joined(separator: ","))]}"#)
    }

    private func browse(_ request: RecordedRequest) -> FixtureResponse {
        guard let id = request.queryItem("collection") else { return .json(#"{"error":"Invalid browse."}"#, status: 400) }
        let offset = Int(request.queryItem("offset") ?? "0") ?? 0
        let limit = min(100, Int(request.queryItem("limit") ?? "25") ?? 25)
        return state.withLock { state -> FixtureResponse in
            guard let collection = state.collections[id] else { return .json(MusicBrainzFixtures.notFound, status: 404) }
            let page = collection.releases.dropFirst(offset).prefix(limit).compactMap { state.catalogue[$0] }
            let items = page.map { release in
                #"{"id":"\#(release.id)","title":"\#(release.title)","status":"Official","date":"1999","country":"GB","artist-credit":[{"name":"\#(release.artist)","joinphrase":"","artist":{"id":"cccccccc-dddd-4eee-8fff-000000000001","name":"\#(release.artist)"}}],"release-group":{"id":"\#(release.groupID)","primary-type":"Album","title":"\#(release.title)"},"label-info":[{"catalog-number":"FIX \#(release.id.suffix(4))","label":{"id":"dddddddd-eeee-4fff-8000-000000000001","name":"Fixture Records"}}],"media":[{"position":1,"format":"12\" Vinyl","track-count":8}]}"#
            }
            return .json(#"{"release-count":\#(collection.releases.count),"release-offset":\#(offset),"releases":[\#(items.joined(separator: ","))]}"#)
        }
    }

    // MARK: - HTTP Digest (RFC 7616 with MD5 and qop=auth, as MusicBrainz answers)

    private func challenge() -> FixtureResponse {
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        state.withLock { _ = $0.nonces.insert(nonce) }
        return .json(#"{"error":"Authentication required"}"#, status: 401, headers: [
            ("WWW-Authenticate", #"Digest realm="musicbrainz.org", nonce="\#(nonce)", qop="auth", algorithm=MD5"#),
        ])
    }

    private func authorised(_ request: RecordedRequest) -> Bool {
        guard let header = request.headers["authorization"], header.hasPrefix("Digest ") else { return false }
        let fields = Self.parameters(String(header.dropFirst("Digest ".count)))
        guard let name = fields["username"], name == user, fields["realm"] == "musicbrainz.org",
              let nonce = fields["nonce"], state.withLock({ $0.nonces.contains(nonce) }),
              let uri = fields["uri"], let response = fields["response"] else { return false }
        let ha1 = MD5.hex("\(user):musicbrainz.org:\(password)")
        let ha2 = MD5.hex("\(request.method):\(uri)")
        let expected: String
        if fields["qop"] == "auth", let count = fields["nc"], let cnonce = fields["cnonce"] {
            expected = MD5.hex("\(ha1):\(nonce):\(count):\(cnonce):auth:\(ha2)")
        } else {
            expected = MD5.hex("\(ha1):\(nonce):\(ha2)")
        }
        return response.lowercased() == expected
    }

    /// `text` as a JSON string literal, quotes and escapes included.
    static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    /// `a="b", c=d` → [a: b, c: d].
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                rest = rest.dropFirst()
                let end = rest.firstIndex(of: "\"") ?? rest.endIndex
                result[key] = String(rest[..<end])
                rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                result[key] = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
        }
        return result
    }
}
