import Foundation
import Testing
@testable import CrateCore

/// docs/reliability.md #16: run reviews with a canary key, then search the database file, errors and logs.
@Suite("Canary API key")
struct CanaryKeyTests {
    @Test func theKeyNeverReachesTheDatabaseErrorsOrLogs() async throws {
        let canary = "sk-ant-CANARY-\(UUID().uuidString)"
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: dir.paths)
        let harness = try ReviewHarness([
            Wire.anthropic(text: ReviewFixture.json()),
            // Servers that echo the key back must not smuggle it into a message.
            Wire.anthropicError(status: 400, type: "invalid_request_error", message: "bad header x-api-key: \(canary)"),
            Wire.anthropicError(status: 401, type: "authentication_error", message: "invalid x-api-key \(canary)"),
            .fail(.transport("connection reset while sending \(canary)")),
        ], key: canary, database: database)

        _ = try await harness.service.review(for: try ReviewHarness.rumours())
        var messages: [String] = []
        for title in ["Tusk", "Mirage", "Tango in the Night"] {
            let error = try #require(await harness.failure(try ReviewHarness.rumours(title)))
            messages += [error.message, error.title, error.localizedDescription, "\(error)", ReviewJSON.render(ReviewJSON.unavailable(error))]
        }
        #expect(messages.contains { $0.contains("[key]") }, "the echoed key was replaced")
        for message in messages { #expect(!message.contains(canary)) }
        for line in harness.log.lines { #expect(!line.contains(canary)) }

        // The key went where it belongs: the header, never the URL or body.
        for request in harness.http.requests {
            #expect(request.headers["x-api-key"] == canary)
            #expect(!request.url.absoluteString.contains(canary))
            #expect(!String(decoding: request.body ?? Data(), as: UTF8.self).contains(canary))
        }

        // Every byte of the library on disk, WAL included.
        #expect(try database.usageRecords().count == 4)
        let files = try FileManager.default.contentsOfDirectory(at: dir.paths.dataDirectory, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(canary.utf8)) == nil, "\(file.lastPathComponent) holds the key")
        }
    }
}
