import Foundation

/// Which listens Last.fm already holds (`user.getRecentTracks`, unsigned): asked before a batch
/// whose earlier request ended unknown is sent again, because Last.fm counts a repeat.
extension LastFMClient: ListenDeliveryChecking {
    /// Scrobbles a page (Last.fm's most).
    static let recentPageSize = 200
    /// Pages read over a batch's whole span; more means other scrobblers crowd it, and each
    /// listen's own few seconds are asked instead.
    static let recentPageLimit = 5

    public func alreadyReceived(_ listens: [QueuedListen]) async throws -> Set<Int64> {
        guard !listens.isEmpty else { return [] }
        let user = try await userName()
        let seconds = listens.map { Int($0.listenedAt.timeIntervalSince1970) }
        // One second either side matches; one more keeps clear of whether Last.fm's `from`/`to`
        // include their ends.
        let held: [LastFMScrobble]
        if let span = try await recentScrobbles(user: user, from: seconds.min()! - 2, to: seconds.max()! + 2) {
            held = span
        } else {
            var near: [LastFMScrobble] = []
            for second in Set(seconds).sorted() {
                guard let some = try await recentScrobbles(user: user, from: second - 2, to: second + 2) else {
                    throw ListenSubmitError.unavailable(service)
                }
                near += some
            }
            held = near
        }
        return Set(listens.filter { listen in held.contains { $0.matches(listen) } }.map(\.id))
    }

    /// Every dated scrobble of `user` between the two times; nil when that is more than
    /// `recentPageLimit` pages.
    func recentScrobbles(user: String, from: Int, to: Int) async throws -> [LastFMScrobble]? {
        var result: [LastFMScrobble] = []
        var page = 1
        while true {
            let body = try await call([
                "method": "user.getRecentTracks", "user": user, "from": String(from), "to": String(to),
                "limit": String(Self.recentPageSize), "page": String(page),
            ], session: false, signed: false)
            guard let answer = LastFMScrobble.page(body) else { throw ListenSubmitError.unavailable(service) }
            if answer.totalPages > Self.recentPageLimit { return nil }
            result += answer.scrobbles
            if page >= answer.totalPages { return result }
            page += 1
        }
    }

    /// The session's user: kept at sign-in, else asked (`user.getInfo` signed with the session
    /// names its own user).
    func userName() async throws -> String {
        if let user { return user }
        let body = try await call(["method": "user.getInfo"], session: true)
        guard let info = body["user"] as? [String: Any], let name = info["name"] as? String, !name.isEmpty else {
            throw ListenSubmitError.unavailable(service)
        }
        return name
    }
}
