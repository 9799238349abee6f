import Foundation

extension MusicBrainzClient {
    /// One page of a release search with MusicBrainz's total `count`, so a batched query (many
    /// catalogue numbers OR'ed) can tell it was cut off and read the next page (`offset`).
    public func searchReleasePage(lucene: String, limit: Int = 100, offset: Int = 0) async throws -> (count: Int, releases: [ReleaseCandidate]) {
        let limit = min(max(limit, 1), 100)
        let url = try makeURL(path: "release", query: "query=\(Self.formEncode(lucene))&fmt=json&limit=\(limit)&offset=\(max(offset, 0))")
        let body = try await get(url)
        do {
            let page = try JSONDecoder().decode(MBSearchResponse.self, from: body)
            return (page.count ?? page.releases.count, page.releases.compactMap(ReleaseCandidate.init))
        } catch {
            throw MusicBrainzError.malformedResponse("search: \(Self.describe(error))")
        }
    }
}
