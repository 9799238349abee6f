import Foundation
import Synchronization

/// A ListenBrainz `submit-listens` on a `FixtureServer` that keeps what it accepted, and can be
/// told to fail (503), hang (the network gone mid-request) or refuse the token (401).
public final class ListenInbox: Sendable {
    public enum Mode: Sendable { case accept, unavailable, hang, unauthorized }
    public let mode = Mutex(Mode.accept)
    /// Every listen accepted, as "listened_at track", in arrival order.
    public let accepted = Mutex<[String]>([])

    public init() {}

    public func install(on server: FixtureServer) {
        server.route("/1/submit-listens", method: "POST") { [self] request in
            switch mode.withLock({ $0 }) {
            case .unavailable: return .json(ListenFixtures.listenBrainzUnavailable, status: 503)
            case .hang: return .never
            case .unauthorized: return .json(ListenFixtures.listenBrainzInvalidToken, status: 401)
            case .accept:
                let body = ListenFixtures.listens(request.body)
                if body.type != "playing_now" {
                    accepted.withLock { $0 += body.listens.map { "\($0.at ?? 0) \($0.track)" } }
                }
                return .json(ListenFixtures.listenBrainzOK)
            }
        }
    }
}
