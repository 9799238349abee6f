import Foundation
import Synchronization

/// A Discogs user's collection and wantlist on a `FixtureServer`, in the real shapes
/// (`/oauth/identity`, `GET /users/{u}/collection/releases/{id}`, `GET /users/{u}/wants` pages with
/// `pagination.urls.next`, `POST …/collection/folders/1/releases/{id}` making a NEW instance each
/// time, `PUT /users/{u}/wants/{id}`), the rate-limit headers on every answer, and the errors:
/// 401, 403, 404, 429 with `Retry-After` and `X-Discogs-Ratelimit-Remaining: 0`, 5xx, and a
/// connection closed without an answer.
public final class DiscogsAccountWorld: Sendable {
    public enum Failure: Sendable, Equatable {
        /// 401 `{"message": "You must authenticate to access this resource."}`.
        case unauthorized
        /// 403 `{"message": "You don't have permission to access this resource."}`.
        case forbidden
        /// 429 with `Retry-After` and the window spent.
        case rateLimited(retryAfter: Int)
        /// 500, 502 (an HTML page from the proxy), 503, …
        case unavailable(status: Int)
        /// A write that Discogs carries out and then answers with `status` (a proxy's 502 after
        /// the backend added the copy): the answer is lost, the change is not.
        case acceptThenFail(status: Int)
        /// The connection closes without an answer, before anything is done.
        case noAnswer
    }

    public let username: String
    /// Instances per release in the collection.
    public let collection = Mutex<[Int: Int]>([:])
    public let wants = Mutex<Set<Int>>([])
    /// Releases Discogs does not know: 404 on reads and writes.
    public let unknownReleases = Mutex<Set<Int>>([])
    /// Failures for the next writes (POST / PUT), used up in order; none left: accepted.
    public let writeFailures = Mutex<[Failure]>([])
    /// Failures for the next reads (GET), used up in order.
    public let readFailures = Mutex<[Failure]>([])
    /// A failure for every request, reads included, while set.
    public let failure = Mutex<Failure?>(nil)
    /// Every write received, as "POST 1873013" / "PUT 421391", in arrival order.
    public let writes = Mutex<[String]>([])
    /// Wants per page (Discogs allows up to 100).
    public let wantsPerPage: Int
    private let nextInstance = Mutex(5_000)

    public init(username: String = "rob_digs", wantsPerPage: Int = 100) {
        self.username = username
        self.wantsPerPage = wantsPerPage
    }

    public static let unauthorized = #"{"message": "You must authenticate to access this resource."}"#
    public static let forbidden = #"{"message": "You don't have permission to access this resource."}"#
    public static let releaseNotFound = #"{"message": "Release not found."}"#
    public static let internalError = #"{"message": "An internal server error occurred."}"#
    public static let badGateway = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>"

    public func install(on server: FixtureServer) {
        let base = server.baseURL.absoluteString
        let user = "/users/\(username)"
        server.route("/oauth/identity", method: "GET") { [self] _ in
            everyRequestFailure() ?? nextReadFailure() ?? ok(DiscogsFixtures.identity(username: username))
        }
        server.route("\(user)/collection/releases/*", method: "GET") { [self] request in
            if let failure = everyRequestFailure() ?? nextReadFailure() { return failure }
            guard let id = Int(request.path.split(separator: "/").last ?? "") else { return .json(Self.releaseNotFound, status: 404) }
            if unknownReleases.withLock({ $0.contains(id) }) { return .json(Self.releaseNotFound, status: 404) }
            return ok(collectionReleases(id))
        }
        server.route("\(user)/wants", method: "GET") { [self] request in
            everyRequestFailure() ?? nextReadFailure() ?? ok(wantsPage(request.queryItem("page").flatMap(Int.init) ?? 1, base: base))
        }
        server.route("\(user)/wants/*", method: "PUT") { [self] request in
            guard let id = Int(request.path.split(separator: "/").last ?? "") else { return .json(Self.releaseNotFound, status: 404) }
            return write("PUT", id) { wants.withLock { _ = $0.insert(id) } } ?? FixtureResponse.json(wantJSON(id), status: 201, headers: Self.headers)
        }
        server.route("\(user)/collection/folders/1/releases/*", method: "POST") { [self] request in
            guard let id = Int(request.path.split(separator: "/").last ?? "") else { return .json(Self.releaseNotFound, status: 404) }
            let instance = nextInstance.withLock { $0 += 1; return $0 }
            let resource = "https://api.discogs.com\(user)/collection/folders/1/releases/\(id)/instances/\(instance)"
            return write("POST", id) { collection.withLock { $0[id, default: 0] += 1 } }
                ?? FixtureResponse.json(#"{"instance_id": \#(instance), "resource_url": "\#(resource)"}"#, status: 201, headers: Self.headers)
        }
    }

    /// Requests received by the writes' routes (what reached Discogs, accepted or not).
    public var writeCount: Int { writes.withLock { $0.count } }

    static let headers = DiscogsFixtures.rateLimitHeaders(remaining: 42)

    private func ok(_ json: String) -> FixtureResponse {
        .json(json, headers: Self.headers)
    }

    private func response(for failure: Failure) -> FixtureResponse {
        switch failure {
        case .unauthorized: return .json(Self.unauthorized, status: 401, headers: Self.headers)
        case .forbidden: return .json(Self.forbidden, status: 403, headers: Self.headers)
        case .rateLimited(let seconds):
            return .json(DiscogsFixtures.tooManyRequests, status: 429, headers: [("Retry-After", "\(seconds)")] + DiscogsFixtures.rateLimitHeaders(remaining: 0))
        case .unavailable(let status), .acceptThenFail(let status):
            if status == 502 { return FixtureResponse(status: 502, headers: [("Content-Type", "text/html")], body: .bytes(Data(Self.badGateway.utf8))) }
            return .json(Self.internalError, status: status)
        case .noAnswer: return .hangUp
        }
    }

    private func nextReadFailure() -> FixtureResponse? {
        readFailures.withLock { $0.isEmpty ? nil : $0.removeFirst() }.map(response(for:))
    }

    private func everyRequestFailure() -> FixtureResponse? {
        failure.withLock { $0 }.map(response(for:))
    }

    /// Records the write, then fails it, or applies `change` (and fails afterwards for
    /// `acceptThenFail`); nil when accepted.
    private func write(_ method: String, _ id: Int, change: () -> Void) -> FixtureResponse? {
        writes.withLock { $0.append("\(method) \(id)") }
        if let failure = failure.withLock({ $0 }) { return response(for: failure) }
        if unknownReleases.withLock({ $0.contains(id) }) { return .json(Self.releaseNotFound, status: 404, headers: Self.headers) }
        let next = writeFailures.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        switch next {
        case nil:
            change()
            return nil
        case .acceptThenFail?:
            change()
            return response(for: next!)
        case let failure?:
            return response(for: failure)
        }
    }

    private func collectionReleases(_ id: Int) -> String {
        let count = collection.withLock { $0[id] ?? 0 }
        let instances = (0..<count).map { n in
            #"{"id": \#(id), "instance_id": \#(4_000 + n), "folder_id": 1, "rating": 0, "date_added": "2026-11-0\#(n % 9 + 1)T10:00:00-08:00", "basic_information": \#(Self.basicInformation(id))}"#
        }
        return #"{"pagination": {"page": 1, "pages": 1, "per_page": 50, "items": \#(count), "urls": {}}, "releases": [\#(instances.joined(separator: ", "))]}"#
    }

    private func wantsPage(_ page: Int, base: String) -> String {
        let all = wants.withLock { $0.sorted() }
        let pages = max(1, (all.count + wantsPerPage - 1) / wantsPerPage)
        let slice = all.dropFirst((page - 1) * wantsPerPage).prefix(wantsPerPage)
        var urls: [String] = []
        if page < pages {
            urls.append(#""last": "\#(base)/users/\#(username)/wants?page=\#(pages)&per_page=\#(wantsPerPage)""#)
            urls.append(#""next": "\#(base)/users/\#(username)/wants?page=\#(page + 1)&per_page=\#(wantsPerPage)""#)
        }
        if page > 1 {
            urls.append(#""first": "\#(base)/users/\#(username)/wants?page=1&per_page=\#(wantsPerPage)""#)
            urls.append(#""prev": "\#(base)/users/\#(username)/wants?page=\#(page - 1)&per_page=\#(wantsPerPage)""#)
        }
        return #"{"pagination": {"page": \#(page), "pages": \#(pages), "per_page": \#(wantsPerPage), "items": \#(all.count), "urls": {\#(urls.joined(separator: ", "))}}, "wants": [\#(slice.map(wantJSON).joined(separator: ", "))]}"#
    }

    private func wantJSON(_ id: Int) -> String {
        #"{"id": \#(id), "rating": 0, "notes": "", "resource_url": "https://api.discogs.com/users/\#(username)/wants/\#(id)", "basic_information": \#(Self.basicInformation(id))}"#
    }

    static func basicInformation(_ id: Int) -> String {
        #"{"id": \#(id), "master_id": 40985, "title": "Rumours", "year": 1977, "resource_url": "https://api.discogs.com/releases/\#(id)", "thumb": "", "cover_image": "", "artists": [{"name": "Fleetwood Mac", "anv": "", "join": "", "id": 8760}], "labels": [{"name": "Warner Bros. Records", "catno": "K 56344", "id": 1000}], "formats": [{"name": "Vinyl", "qty": "1", "descriptions": ["LP", "Album"]}]}"#
    }
}
