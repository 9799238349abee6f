import Foundation

/// A release group from a MusicBrainz search.
public struct ReleaseGroupHit: Equatable, Sendable {
    public var id: MBID
    public var title: String
    public var artist: String
    public var primaryType: String?
    public var secondaryTypes: [String]
    /// The credited artists' MBIDs, in credit order.
    public var artistIDs: [MBID] = []
}

/// One page of a release-group search.
public struct ReleaseGroupPage: Equatable, Sendable {
    /// How many release groups match in all (for choosing a random offset).
    public var count: Int
    public var groups: [ReleaseGroupHit]
}

struct MBReleaseGroupSearch: Decodable {
    let count: Int?
    let groups: [MBReleaseGroupFull]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        count = c.lenientInt(AnyKey("count"))
        guard c.contains(AnyKey("release-groups")) else {
            throw DecodingError.keyNotFound(AnyKey("release-groups"), .init(codingPath: [], debugDescription: "no release-groups"))
        }
        groups = c.lenientArray(MBReleaseGroupFull.self, AnyKey("release-groups"))
    }
}

struct MBReleaseGroupFull: Decodable {
    let group: MBReleaseGroup
    let artistCredit: [MBArtistCredit]

    init(from decoder: Decoder) throws {
        group = try MBReleaseGroup(from: decoder)
        let c = try decoder.container(keyedBy: AnyKey.self)
        artistCredit = c.lenientArray(MBArtistCredit.self, AnyKey("artist-credit"))
    }

    var hit: ReleaseGroupHit? {
        guard let id = MBID(validating: group.id) else { return nil }
        let artist = artistCredit.map { ($0.name ?? $0.artist?.name ?? "") + ($0.joinphrase ?? "") }.joined().trimmingCharacters(in: .whitespaces)
        return ReleaseGroupHit(id: id, title: group.title ?? "", artist: artist, primaryType: group.primaryType, secondaryTypes: group.secondaryTypes,
                               artistIDs: artistCredit.compactMap { MBID(validating: $0.artist?.id) })
    }
}

struct MBReleaseBrowse: Decodable {
    /// `release-count`: how many the browse holds in all.
    let count: Int?
    let releases: [MBRelease]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        count = c.lenientInt(AnyKey("release-count"))
        guard c.contains(AnyKey("releases")) else {
            throw DecodingError.keyNotFound(AnyKey("releases"), .init(codingPath: [], debugDescription: "no releases"))
        }
        releases = c.lenientArray(MBRelease.self, AnyKey("releases"))
    }
}

extension MusicBrainzClient {
    /// `GET /release-group?query=…&limit=&offset=`. `lucene` must already be escaped (`LuceneQuery`).
    public func searchReleaseGroups(lucene: String, limit: Int = 25, offset: Int = 0) async throws -> ReleaseGroupPage {
        let limit = min(max(limit, 1), 100)
        let url = try releaseGroupURL(path: "release-group", query: "query=\(Self.encodeQueryValue(lucene))&fmt=json&limit=\(limit)&offset=\(max(0, offset))")
        let body = try await getBody(url)
        do {
            let page = try JSONDecoder().decode(MBReleaseGroupSearch.self, from: body)
            return ReleaseGroupPage(count: page.count ?? page.groups.count, groups: page.groups.compactMap(\.hit))
        } catch {
            throw MusicBrainzError.malformedResponse("release-group search")
        }
    }

    /// The recordings of one release of a group, in one request
    /// (`GET /release?release-group=…&inc=recordings&limit=1`): what recording feedback is sent for.
    public func recordings(ofReleaseGroup group: MBID) async throws -> [MBID] {
        let url = try releaseGroupURL(path: "release", query: "release-group=\(group.rawValue)&inc=recordings&status=official&limit=1&fmt=json")
        let body = try await getBody(url)
        do {
            let browse = try JSONDecoder().decode(MBReleaseBrowse.self, from: body)
            return browse.releases.first?.media.flatMap(\.tracks).compactMap { MBID(validating: $0.recordingID) } ?? []
        } catch {
            throw MusicBrainzError.malformedResponse("release browse")
        }
    }

    /// The recordings of one release (a lookup).
    public func recordings(ofRelease release: MBID) async throws -> [MBID] {
        try await self.release(release).tracks.compactMap(\.recordingID)
    }
}

extension MusicBrainzClient {
    /// One official release of a group with its tracks, in one request
    /// (`GET /release?release-group=…&inc=recordings+artist-credits+labels+release-groups&limit=1`):
    /// what a wall album's detail pane shows. Nil when the group lists no release.
    public func releaseDetails(ofReleaseGroup group: MBID) async throws -> ReleaseDetails? {
        let url = try releaseGroupURL(path: "release", query: "release-group=\(group.rawValue)&inc=recordings+artist-credits+labels+release-groups&status=official&limit=1&fmt=json")
        let body = try await getBody(url)
        let browse: MBReleaseBrowse
        do {
            browse = try JSONDecoder().decode(MBReleaseBrowse.self, from: body)
        } catch {
            throw MusicBrainzError.malformedResponse("release browse")
        }
        guard let release = browse.releases.first, let id = MBID(validating: release.id) else { return nil }
        return ReleaseDetails(release, id: id)
    }
}
