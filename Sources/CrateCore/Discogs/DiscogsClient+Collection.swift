import Foundation

/// The token owner's collection and wantlist (docs/decisions/0044-discogs-account-and-outbox.md):
/// how many copies of a release they have, which releases they want, and the two additions.
/// Only release ids and counts are read from the replies — never a price, a marketplace or a
/// community field (docs/decisions/0005-music-never-money.md).
extension DiscogsClient {
    /// Wantlist pages read at most (100 wants a page, Discogs's maximum).
    public static let maxWantlistPages = 100

    /// `GET /users/{u}/collection/releases/{id}`: the user's instances of the release. A 404
    /// (none in the collection, or a release Discogs does not know) is 0 copies.
    public func collectionCopies(username: String, releaseID: Int) async throws -> Int {
        let body: Data
        do {
            body = try await get(try userURL(username, "collection/releases/\(releaseID)"))
        } catch DiscogsError.server(status: 404) {
            return 0
        }
        return try DiscogsAccountReplies.copies(in: body)
    }

    /// `GET /users/{u}/wants`, every page (following `pagination.urls.next`, on Discogs's own
    /// host only: the token never goes elsewhere), up to `maxWantlistPages`.
    public func wantlist(username: String) async throws -> (releaseIDs: Set<Int>, complete: Bool) {
        var next: URL? = try userURL(username, "wants", query: [URLQueryItem(name: "per_page", value: "100"), URLQueryItem(name: "page", value: "1")])
        var ids = Set<Int>()
        var pages = 0
        while let url = next {
            guard pages < Self.maxWantlistPages else { return (ids, false) }
            try Task.checkCancellation()
            let page = try DiscogsAccountReplies.wantsPage(try await get(url))
            ids.formUnion(page.releaseIDs)
            pages += 1
            next = page.next.flatMap { sameOrigin($0) ? $0 : nil }
            if page.next != nil, next == nil { throw DiscogsError.malformedResponse }
        }
        return (ids, true)
    }

    /// `POST /users/{u}/collection/folders/1/releases/{id}` ("Uncategorized"): a new instance.
    /// Any 2xx counts as added, even with a body Crate cannot read.
    @discardableResult
    public func addToCollection(username: String, releaseID: Int) async throws -> Int? {
        let body = try await send("POST", try userURL(username, "collection/folders/1/releases/\(releaseID)"))
        return DiscogsAccountReplies.instanceID(in: body)
    }

    /// `PUT /users/{u}/wants/{id}`: on the wantlist (again, harmlessly, when it already was).
    public func addToWantlist(username: String, releaseID: Int) async throws {
        _ = try await send("PUT", try userURL(username, "wants/\(releaseID)"))
    }

    /// `{base}/users/{escaped user}/{rest}`: the user name is one path segment whatever it holds.
    func userURL(_ username: String, _ rest: String, query: [URLQueryItem] = []) throws -> URL {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        guard !username.isEmpty, let user = username.addingPercentEncoding(withAllowedCharacters: allowed),
              var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { throw DiscogsError.malformedResponse }
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = "\(base)/users/\(user)/\(rest)"
        components.queryItems = query.isEmpty ? nil : query
        guard let url = components.url else { throw DiscogsError.malformedResponse }
        return url
    }

    /// Same scheme, host and port as the configured API.
    func sameOrigin(_ url: URL) -> Bool {
        url.scheme?.lowercased() == baseURL.scheme?.lowercased() && url.host?.lowercased() == baseURL.host?.lowercased()
            && (url.port ?? defaultPort(url)) == (baseURL.port ?? defaultPort(baseURL))
    }

    private func defaultPort(_ url: URL) -> Int {
        url.scheme?.lowercased() == "http" ? 80 : 443
    }
}
