import Foundation

/// One page of `GET /release?release-group=…` (a browse: `release-count`, `release-offset`).
struct MBReleaseBrowsePage: Decodable {
    let count: Int?
    /// Every element the page sent, readable or not: the next offset counts them all.
    let releases: [Lossy<MBRelease>]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        count = c.lenientInt(AnyKey("release-count"))
        guard c.contains(AnyKey("releases")) else {
            throw DecodingError.keyNotFound(AnyKey("releases"), .init(codingPath: [], debugDescription: "no releases"))
        }
        releases = (try? c.decode([Lossy<MBRelease>].self, forKey: AnyKey("releases"))) ?? []
    }
}

extension MusicBrainzClient {
    /// The most releases one pressing list reads (5 pages): a few albums have hundreds of
    /// releases, and nobody picks from more than this in a list.
    public static let maxPressings = 500

    /// Every release of `group` ("which pressing"), with labels and media
    /// (`GET /release?release-group=…&inc=labels+media&limit=100&offset=…`), page after page until
    /// `release-count` or `maxPressings`. Official first, then by date and country
    /// (`Pressing.ordered`). An empty list when the group has no release.
    public func pressings(ofReleaseGroup group: MBID, limit: Int = maxPressings) async throws -> [Pressing] {
        let pageSize = 100
        var found: [Pressing] = []
        var seen = Set<String>()
        var offset = 0
        while offset < limit {
            let url = try makeURL(path: "release", query: "release-group=\(group.rawValue)&inc=labels+media&limit=\(pageSize)&offset=\(offset)&fmt=json")
            let body = try await get(url)
            let page: MBReleaseBrowsePage
            do {
                page = try JSONDecoder().decode(MBReleaseBrowsePage.self, from: body)
            } catch {
                throw MusicBrainzError.malformedResponse("release browse: \(Self.describe(error))")
            }
            for release in page.releases.compactMap(\.value) {
                // A release edited between two pages can come twice; an unreadable id is skipped.
                guard let id = MBID(validating: release.id), seen.insert(id.rawValue).inserted else { continue }
                let details = ReleaseDetails(release, id: id)
                found.append(Pressing(releaseID: id, title: details.album.title, facts: details.facts))
            }
            offset += page.releases.count
            // An empty page ends it even when the count says more (a count that lies never loops).
            if page.releases.isEmpty || offset >= (page.count ?? 0) { break }
        }
        return Pressing.ordered(Array(found.prefix(limit)))
    }
}
