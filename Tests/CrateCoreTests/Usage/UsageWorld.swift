import CrateCore
import CrateTestSupport
import Foundation
import Synchronization

/// A library whose services come from the real composition root (`AppEnvironment.services()`)
/// with the real Anthropic provider, MusicBrainz and Cover Art Archive clients pointed at a
/// loopback fixture server. The fake model's answer is chosen per scan with `mode`.
final class UsageWorld: @unchecked Sendable {
    enum Mode: Sendable { case rumours, needsSearch, nothing }

    let server: FixtureServer
    let directory: TemporaryDirectory
    let database: AppDatabase
    private let mode = ModeBox()

    init(budget: UsageBudget = .none) throws {
        server = try FixtureServer()
        directory = try TemporaryDirectory()
        database = try AppDatabase.open(paths: directory.paths)
        var settings = Settings()
        settings.advancedSearch = true
        settings.monthlyBudget = budget
        try settings.save(paths: directory.paths)
        serveRumours()
        let mode = self.mode
        server.route("/v1/messages") { request in
            let body = String(decoding: request.body, as: UTF8.self)
            let rumours = #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":"Warner Bros.","readable_text":"FLEETWOOD MAC RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.95}"#
            let unsure = #"{"artist":"","album":"","year":null,"label":null,"readable_text":"KRAUTWERK ZWEI","text_confidence":"high","search_needed":true,"confidence":0.1}"#
            let found = #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":"Warner Bros.","readable_text":"RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.9}"#
            guard body.contains("Identify the album") else {
                return .json(ProviderFixtures.anthropicMessage(ProviderFixtures.rumoursReview))
            }
            let searching = body.contains("web_search")
            switch mode.value.withLock({ $0 }) {
            case .rumours: return .json(ProviderFixtures.anthropicMessage(rumours))
            case .needsSearch: return .json(ProviderFixtures.anthropicMessage(searching ? found : unsure))
            case .nothing: return .json(ProviderFixtures.anthropicMessage(unsure))
            }
        }
    }

    deinit { server.stop() }

    func setMode(_ next: Mode) { mode.value.withLock { $0 = next } }

    var environment: AppEnvironment {
        AppEnvironment(paths: directory.paths, variables: [
            "CRATE_PROVIDER": "anthropic", "CRATE_ANTHROPIC_API_KEY": "sk-test-usage",
            "CRATE_ANTHROPIC_URL": server.baseURL.absoluteString,
            "CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString,
            "CRATE_COVERART_URL": server.url("/caa").absoluteString,
            "CRATE_SECRET_SERVICE": "off",
        ], database: database, transport: CurlHTTPClient(), limiter: RateLimiter(clock: TestClock()))
    }

    func pipeline(offline: Bool = false) throws -> ScanPipeline {
        try environment.services(offline: offline).makeScanPipeline()
    }

    var providerRequests: Int { server.requests.filter { $0.path == "/v1/messages" }.count }

    private func serveRumours() {
        let id = MusicBrainzFixtures.rumoursReleaseID
        let cover = (try? ImageFixtures.data("covers/cover-00.jpg")) ?? Data()
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])
        server.route("/ws/2/release/\(id)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        server.route("/caa/release/\(id)", responses: [.redirect(to: "/storage/\(id)/index.json")])
        server.route("/storage/\(id)/index.json", responses: [.json(CoverArtFixtures.index(releaseID: id, imageBase: server.url("/caa")))])
        server.route("/caa/img/\(id)/30688716524-500.jpg", responses: [.redirect(to: "/storage/\(id)/front-500.jpg")])
        server.route("/storage/\(id)/front-500.jpg", responses: [.data(cover)])
    }
}

/// The fake model's mode, shared with the server's handler thread.
final class ModeBox: Sendable {
    let value = Mutex(UsageWorld.Mode.rumours)
}
