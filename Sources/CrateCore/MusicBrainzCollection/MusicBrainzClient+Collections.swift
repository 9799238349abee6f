import Foundation

/// MusicBrainz release collections (WS/2, HTTP Digest with the user's name and password): list
/// the user's collections, read one a page at a time, add and remove releases. Paced like every
/// MusicBrainz request, across all of the user's Crate processes.
extension MusicBrainzClient {
    /// Releases per PUT/DELETE: the API has no count limit, only the URL's length (beets sends
    /// 200; 100 MBIDs make a URL of about 3.7 KB).
    public static let collectionBatchSize = 100

    /// The user's release collections (`GET /collection`), private ones included.
    public func collections(as account: HTTPCredentials) async throws -> [MusicBrainzCollection] {
        let body = try await collectionRequest("GET", try makeURL(path: "collection", query: "fmt=json&limit=100"), account: account, collection: nil)
        struct Reply: Decodable {
            struct Item: Decodable {
                var id: String
                var name: String?
                var entityType: String?
                var releaseCount: Int?
                enum CodingKeys: String, CodingKey {
                    case id, name
                    case entityType = "entity-type"
                    case releaseCount = "release-count"
                }
            }
            var collections: [Item]
        }
        guard let reply = try? JSONDecoder().decode(Reply.self, from: body) else {
            throw MusicBrainzCollectionError.service(.malformedResponse("collections"))
        }
        return reply.collections
            .filter { ($0.entityType ?? "release") == "release" && MBID(validating: $0.id) != nil }
            .map { MusicBrainzCollection(id: $0.id, name: $0.name ?? $0.id, releaseCount: $0.releaseCount ?? 0) }
    }

    /// One page (up to 100) of the collection's releases, with what the crate needs to keep each
    /// (title, artist, release group, labels, media; the track lists come later, at the repair
    /// pass's pace).
    public func collectionReleases(_ collection: String, offset: Int, as account: HTTPCredentials) async throws -> MusicBrainzCollectionPage {
        let id = try Self.collectionID(collection)
        let url = try makeURL(path: "release", query: "collection=\(id)&inc=artist-credits+release-groups+labels+media&limit=100&offset=\(max(0, offset))&fmt=json")
        let body = try await collectionRequest("GET", url, account: account, collection: id)
        guard let page = try? JSONDecoder().decode(MBReleaseBrowse.self, from: body) else {
            throw MusicBrainzCollectionError.service(.malformedResponse("collection releases"))
        }
        let releases = page.releases.compactMap { release in MBID(validating: release.id).map { ReleaseDetails(release, id: $0) } }
        return MusicBrainzCollectionPage(releases: releases, total: page.count ?? releases.count)
    }

    /// Adds `releases` to the collection, `collectionBatchSize` a request. Adding one already
    /// there changes nothing (the request is idempotent), so a retry is harmless.
    public func add(_ releases: [MBID], to collection: String, as account: HTTPCredentials) async throws {
        try await edit("PUT", releases, collection: collection, account: account)
    }

    /// Removes `releases` from the collection (idempotent, like `add`).
    public func remove(_ releases: [MBID], from collection: String, as account: HTTPCredentials) async throws {
        try await edit("DELETE", releases, collection: collection, account: account)
    }

    private func edit(_ method: String, _ releases: [MBID], collection: String, account: HTTPCredentials) async throws {
        let id = try Self.collectionID(collection)
        let client = "crate-\(CrateVersion.string)"
        for start in stride(from: 0, to: releases.count, by: Self.collectionBatchSize) {
            let batch = releases[start..<min(start + Self.collectionBatchSize, releases.count)]
            // ";" joins the MBIDs; encoded, as beets sends it.
            let list = batch.map(\.rawValue).joined(separator: "%3B")
            let url = try makeURL(path: "collection/\(id)/releases/\(list)", query: "client=\(Self.encodeQueryValue(client))&fmt=json")
            _ = try await collectionRequest(method, url, account: account, collection: id)
        }
    }

    /// One authenticated request; the body of a 2xx, else the matching error.
    private func collectionRequest(_ method: String, _ url: URL, account: HTTPCredentials, collection: String?) async throws -> Data {
        let request = HTTPRequest(method: method, url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"],
                                  timeout: 30, maxBodyBytes: 8 << 20, digest: account)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw MusicBrainzCollectionError.service(.network(error))
        } catch let error as RetryLaterError {
            throw MusicBrainzCollectionError.service(.mustWait(seconds: error.seconds))
        }
        switch response.status {
        case 200..<300: return response.body
        case 401: throw MusicBrainzCollectionError.signInRefused
        case 404 where collection != nil: throw MusicBrainzCollectionError.collectionNotFound(collection ?? "")
        case 404: throw MusicBrainzCollectionError.service(.notFound)
        case 403: throw MusicBrainzCollectionError.service(.refused)
        case 429, 503: throw MusicBrainzCollectionError.service(.busy)
        default: throw MusicBrainzCollectionError.service(.server(status: response.status))
        }
    }

    /// A collection id is an MBID; anything else never reaches a URL.
    static func collectionID(_ text: String) throws -> String {
        guard let id = MBID(validating: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw MusicBrainzCollectionError.collectionNotFound(text)
        }
        return id.rawValue
    }
}
