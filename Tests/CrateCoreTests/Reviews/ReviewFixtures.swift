import Foundation
@testable import CrateCore

/// Model answers for review tests.
enum ReviewFixture {
    static let bullets = [
        "Rolling Stone and AllMusic both rank it among the defining albums of the 1970s; it sits in Rolling Stone's 500 Greatest Albums top ten.",
        "Spent 31 weeks at No. 1 on the Billboard 200 and won the Grammy for Album of the Year in 1978.",
        "\"Dreams\" became the band's only US No. 1 single, built on Mick Fleetwood's hypnotic, sparse groove.",
        "Its polished, harmony-rich soft rock shaped decades of pop production, from Haim to Taylor Swift.",
    ]

    /// A review answer as JSON text; override any field (pass `NSNull()` to drop nothing, a string
    /// for a rating-as-string, …).
    static func json(
        summary: String = "Rumours turns a band's private collapse into immaculate, radio-ready soft rock. Every song is a conversation between former lovers, and the craft never slips.",
        bullets: [String] = ReviewFixture.bullets,
        rating: Any = 9.6,
        recommendation: String = "Essential Classic",
        tracks: [String] = ["Dreams", "Go Your Own Way", "The Chain", "Songbird", "Gold Dust Woman"]
    ) -> String {
        let object: [String: Any] = [
            "context_summary": summary,
            "context_bullets": bullets,
            "rating": rating,
            "recommendation": recommendation,
            "key_tracks": tracks,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A ReviewService over a scripted Anthropic endpoint and an in-memory library.
struct ReviewHarness {
    let http: ScriptedHTTPClient
    let database: AppDatabase
    let service: ReviewService
    let log: LogCollector

    static let fixedDate = Date(timeIntervalSince1970: 1_780_000_000)

    init(_ steps: [ScriptedHTTPClient.Step], advancedSearch: Bool = false, key: String = "sk-ant-test", database: AppDatabase? = nil) throws {
        http = ScriptedHTTPClient(steps)
        self.database = try database ?? AppDatabase.inMemory()
        log = LogCollector()
        let provider = UsageRecordingProvider(
            ProviderFactory.makeDirect(kind: .anthropic, key: key, model: "claude-test", endpoint: URL(string: "http://127.0.0.1:9")!, http: http)!,
            database: self.database, log: log.sink
        )
        service = ReviewService(
            provider: provider, database: self.database, prompts: PromptLibrary.locate(environment: [:]),
            advancedSearch: advancedSearch, log: log.sink, clock: { ReviewHarness.fixedDate }
        )
    }

    static func rumours(_ title: String = "Rumours", year: String? = "1977") throws -> ReviewInput {
        try ReviewInput(artist: "Fleetwood Mac", title: title, year: year, genres: ["Rock", "Pop"], label: "Warner Bros. Records")
    }

    /// Runs a review expected to fail and returns the error.
    func failure(_ input: ReviewInput, regenerate: Bool = false) async -> ReviewError? {
        do {
            _ = try await service.review(for: input, regenerate: regenerate)
            return nil
        } catch let error as ReviewError {
            return error
        } catch {
            return nil
        }
    }

    /// The user message of request `index`.
    func userText(_ index: Int) -> String? {
        let messages = http.bodies[index]["messages"] as? [[String: Any]]
        let content = messages?.first?["content"] as? [[String: Any]]
        return content?.last?["text"] as? String
    }
}
