import Foundation

/// Artist search and the artist's release groups (browse), through the same paced `HTTPClient`
/// as every other MusicBrainz request.
extension MusicBrainzClient {
    /// The most release groups MusicBrainz sends in one browse page.
    public static let browsePageSize = 100

    /// `GET /artist?query=artist:"<name>"`: candidates with MusicBrainz's score, best first.
    public func searchArtists(name: String, limit: Int = 10) async throws -> [ArtistCandidate] {
        let limit = min(max(limit, 1), 100)
        let url = try makeURL(path: "artist", query: "query=\(Self.formEncode(LuceneQuery.artist(name)))&fmt=json&limit=\(limit)")
        let body = try await get(url)
        do {
            let response = try JSONDecoder().decode(MBArtistSearchResponse.self, from: body)
            return ArtistResolution.rank(response.artists.compactMap(\.candidate))
        } catch {
            throw MusicBrainzError.malformedResponse("artist search: \(Self.describe(error))")
        }
    }

    /// The artists credited on a release group (`GET /release-group/<id>?inc=artist-credits`), in
    /// credit order: what an album's artist name means, without searching for the name.
    public func creditedArtists(ofReleaseGroup group: MBID) async throws -> [ArtistCandidate] {
        let url = try makeURL(path: "release-group/\(group.rawValue)", query: "inc=artist-credits&fmt=json")
        let body = try await get(url)
        do {
            let response = try JSONDecoder().decode(MBReleaseGroupCredits.self, from: body)
            return response.artistCredit.compactMap { credit in
                guard let id = MBID(validating: credit.artist?.id), let name = credit.artist?.name ?? credit.name, !name.isEmpty else { return nil }
                return ArtistCandidate(id: id, name: name, score: 100)
            }
        } catch {
            throw MusicBrainzError.malformedResponse("release group credits: \(Self.describe(error))")
        }
    }

    /// One page of `GET /release-group?artist=<id>&type=album|ep&inc=artist-credits`, as sent
    /// (MusicBrainz does not order it by date). `offset` counts release groups.
    public func releaseGroups(artist: MBID, offset: Int, limit: Int = MusicBrainzClient.browsePageSize) async throws -> ArtistReleaseGroupPage {
        let limit = min(max(limit, 1), Self.browsePageSize)
        let url = try makeURL(path: "release-group",
                              query: "artist=\(artist.rawValue)&type=album%7Cep&inc=artist-credits&limit=\(limit)&offset=\(max(0, offset))&fmt=json")
        let body: Data
        do {
            body = try await get(url)
        } catch MusicBrainzError.notFound {
            throw ArtistCatalogueError.noSuchArtist(artist)
        }
        do {
            let response = try JSONDecoder().decode(MBReleaseGroupBrowse.self, from: body)
            let name = response.releaseGroups.lazy.compactMap { $0.creditedName(of: artist) }.first
            return ArtistReleaseGroupPage(
                entries: response.releaseGroups.compactMap(\.entry),
                received: response.releaseGroups.count,
                total: response.count,
                offset: response.offset ?? offset,
                artistName: name
            )
        } catch {
            throw MusicBrainzError.malformedResponse("release groups: \(Self.describe(error))")
        }
    }
}

/// One browse page of an artist's release groups.
public struct ArtistReleaseGroupPage: Equatable, Sendable {
    /// The readable release groups (one without a valid id is skipped).
    public let entries: [ReleaseGroupEntry]
    /// How many objects the page held, readable or not: what the next offset moves by.
    public let received: Int
    /// `release-group-count`.
    public let total: Int
    public let offset: Int
    /// The artist's name as credited on these release groups, when one credits them.
    public let artistName: String?
}

// MARK: - JSON shapes

struct MBArtistSearchResponse: Decodable {
    let artists: [MBArtistResult]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard c.contains(AnyKey("artists")) else {
            throw DecodingError.keyNotFound(AnyKey("artists"), .init(codingPath: [], debugDescription: "no artists"))
        }
        artists = c.lenientArray(MBArtistResult.self, AnyKey("artists"))
    }
}

struct MBArtistResult: Decodable {
    let id: String?
    let name: String?
    let sortName: String?
    let disambiguation: String?
    let type: String?
    let country: String?
    let begin: String?
    let end: String?
    let score: Int?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = c.lenientString(AnyKey("id"))
        name = c.lenientString(AnyKey("name"))
        sortName = c.lenientString(AnyKey("sort-name"))
        disambiguation = c.lenientString(AnyKey("disambiguation"))
        type = c.lenientString(AnyKey("type"))
        country = c.lenientString(AnyKey("country"))
        score = c.lenientInt(AnyKey("score"))
        let span = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("life-span"))
        begin = span?.lenientString(AnyKey("begin"))
        end = span?.lenientString(AnyKey("end"))
    }

    var candidate: ArtistCandidate? {
        guard let id = MBID(validating: id), let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        return ArtistCandidate(id: id, name: name, sortName: nonEmpty(sortName), disambiguation: nonEmpty(disambiguation),
                               type: nonEmpty(type), country: nonEmpty(country), begin: nonEmpty(begin), end: nonEmpty(end),
                               score: min(max(score ?? 0, 0), 100))
    }
}

struct MBReleaseGroupBrowse: Decodable {
    let count: Int
    let offset: Int?
    let releaseGroups: [MBBrowsedReleaseGroup]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard c.contains(AnyKey("release-groups")) else {
            throw DecodingError.keyNotFound(AnyKey("release-groups"), .init(codingPath: [], debugDescription: "no release groups"))
        }
        releaseGroups = c.lenientArray(MBBrowsedReleaseGroup.self, AnyKey("release-groups"))
        count = max(0, c.lenientInt(AnyKey("release-group-count")) ?? releaseGroups.count)
        offset = c.lenientInt(AnyKey("release-group-offset"))
    }
}

struct MBBrowsedReleaseGroup: Decodable {
    let group: MBReleaseGroup
    let artistCredit: [MBArtistCredit]

    init(from decoder: Decoder) throws {
        group = try MBReleaseGroup(from: decoder)
        artistCredit = (try? decoder.container(keyedBy: AnyKey.self))?.lenientArray(MBArtistCredit.self, AnyKey("artist-credit")) ?? []
    }

    var entry: ReleaseGroupEntry? {
        guard let id = MBID(validating: group.id) else { return nil }
        let title = group.title?.trimmingCharacters(in: .whitespacesAndNewlines)
        return ReleaseGroupEntry(id: id, title: title?.isEmpty == false ? title! : "Untitled", primaryType: group.primaryType,
                                 secondaryTypes: group.secondaryTypes, firstReleaseDate: group.firstReleaseDate)
    }

    /// The artist's own name (not the credited alias) when this release group credits them.
    func creditedName(of artist: MBID) -> String? {
        artistCredit.first { MBID(validating: $0.artist?.id) == artist }.flatMap { $0.artist?.name ?? $0.name }
    }
}

/// `GET /release-group/<id>?inc=artist-credits`: only the credits are read.
struct MBReleaseGroupCredits: Decodable {
    let artistCredit: [MBArtistCredit]

    init(from decoder: Decoder) throws {
        artistCredit = (try? decoder.container(keyedBy: AnyKey.self))?.lenientArray(MBArtistCredit.self, AnyKey("artist-credit")) ?? []
    }
}
