import Foundation

/// How `CurlHTTPClient` turns a 3xx answer into the next request.
///
/// libcurl 7.88 forwards custom headers (`x-api-key`, `x-goog-api-key`) to whatever host a
/// redirect names, and only protects `Authorization`/cookies. Crate follows redirects itself and,
/// when the origin changes, keeps only headers known to carry no secret.
enum RedirectPolicy {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Headers safe to send to a host the caller never named.
    static let crossOriginSafeHeaders: Set<String> = ["user-agent", "accept", "accept-language"]

    static let allowedSchemes: Set<String> = ["http", "https"]

    /// The request to send after `response`, or nil when `response` is not a redirect.
    static func nextRequest(after request: HTTPRequest, status: Int, headers: [String: String]) throws -> HTTPRequest? {
        guard redirectStatuses.contains(status), let location = headers["location"], !location.isEmpty else { return nil }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased() else {
            throw HTTPError.redirectRefused("a malformed address")
        }
        guard allowedSchemes.contains(scheme), target.host?.isEmpty == false else {
            throw HTTPError.redirectRefused("\(scheme)://")
        }

        var next = request
        next.url = target
        // 303 always, and 301/302 after a POST, become a GET (what browsers and libcurl do).
        let method = request.method.uppercased()
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            next.method = "GET"
            next.body = nil
            next.headers = next.headers.filter { !["content-type", "content-length"].contains($0.key.lowercased()) }
        }
        if !sameOrigin(request.url, target) {
            next.headers = next.headers.filter { crossOriginSafeHeaders.contains($0.key.lowercased()) }
            next.digest = nil
        }
        return next
    }

    /// Scheme, host and port all equal. `127.0.0.1` and `localhost` are different hosts.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased()
            && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
