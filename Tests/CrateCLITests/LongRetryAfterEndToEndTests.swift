import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// MusicBrainz answering `503` with `Retry-After: 600`: the CLI used to sit silent for 120 s and
/// then give up. Now it answers within seconds, says how long MusicBrainz asked for, saves nothing
/// half-done, and a queued photo stays queued for a later run.
@Suite("A long MusicBrainz pause, end to end", .tags(.process, .slow))
struct LongRetryAfterEndToEndTests {
    /// `Retry-After` as seconds, or as an HTTP date ten minutes ahead (made when the answer is sent).
    enum Form: String, CaseIterable, Sendable {
        case seconds, httpDate

        var header: String {
            switch self {
            case .seconds: return "600"
            case .httpDate:
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                return formatter.string(from: Date().addingTimeInterval(600))
            }
        }
    }

    static func pause(_ server: FixtureServer, form: Form) {
        server.route("/ws/2/release") { _ in
            .json(MusicBrainzFixtures.rateLimited, status: 503, headers: [("Retry-After", form.header)])
        }
    }

    static func identifyCalls(_ server: FixtureServer) -> Int {
        server.requests(path: "/v1/messages").filter { String(decoding: $0.body, as: UTF8.self).contains("\"image\"") }.count
    }

    /// A scan that sat out the pause would ask MusicBrainz again after it (the request count
    /// fails it) and would take 10 minutes (the time limit fails it first); how soon it returns
    /// on a busy machine is printed, not asserted.
    @Test(.timeLimit(.minutes(5)), arguments: Form.allCases)
    func scanSaysHowLongAndReturnsAtOnce(form: Form) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        PacingFixtures.serve(server)
        Self.pause(server, form: form)
        let cli = try CLIRunner()

        let started = Date()
        let result = try await cli.run(["scan", "--json"] + PacingFixtures.photos(from: 0).prefix(2), extraEnvironment: ScanEndToEndTests.environment(server))
        let elapsed = Date().timeIntervalSince(started)

        print("crate scan with a \(form) Retry-After returned after \(String(format: "%.2f", elapsed)) s")
        #expect(result.status == 1)
        let objects = try result.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 2)
        for object in objects {
            #expect(object["status"] as? String == "error")
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["code"] as? String == "must_wait")
            // What is left of the pause when the answer is written: at most the elapsed time less.
            // Ten minutes asked; Crate pauses MusicBrainz for two at most, less the time the
            // answer took to be written.
            let least = 120 - Int(elapsed.rounded(.up)) - 1
            #expect((least...120).contains(error["retry_after_seconds"] as? Int ?? 0), "\(error) after \(elapsed) s")
            #expect(error["queued"] as? Bool == false)
            #expect(error["message"] as? String
                    == "MusicBrainz asked Crate to pause; it waits 2 minutes — this photo was not scanned and nothing was saved; scan it again after that.")
        }
        #expect(server.requests(path: "/ws/2/release").count == 1, "one request, no retry, no request during the pause")
        #expect(Self.identifyCalls(server) == 1, "the second photo was stopped before its paid identification")
        let history = try await cli.run(["history", "--json"])
        #expect(!history.stdout.contains("Pacing Album"), "nothing half-saved")
    }

    /// A run that slept through the 10-minute pause would have scanned the photos (the counts
    /// fail it), and the time limit ends it long before.
    @Test(.timeLimit(.minutes(5)), arguments: Form.allCases)
    func batchRunKeepsThePhotosQueuedUntilThePauseIsOver(form: Form) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        PacingFixtures.serve(server)
        Self.pause(server, form: form)
        let cli = try CLIRunner()
        let environment = ScanEndToEndTests.environment(server)
        let photos = Array(PacingFixtures.photos(from: 0).prefix(2))
        #expect(try await cli.run(["batch", "add"] + photos).status == 0)

        let pauseStarted = Date()
        let stopped = try await cli.run(["batch", "run", "--json"], extraEnvironment: environment)
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("crate: MusicBrainz asked Crate to pause; it waits 2 minutes — the scan is queued and will be tried again on the next run after that."),
                "\(stopped.stderr)")
        #expect(stopped.stderr.contains("asked Crate to wait 10 minutes; Crate pauses it for 2 minutes at most"), "\(stopped.stderr)")
        #expect(try await Self.counts(cli) == ["pending": 2, "done": 0, "failed": 0])

        // Another process during the pause: it knows from the shared pacing file, and stops before
        // spending anything (no identification, no MusicBrainz request).
        let again = try await cli.run(["batch", "run"], extraEnvironment: environment)
        // What is left of the two minutes: less on a machine so loaded that the first run took long.
        // On a machine so loaded that the two runs outlasted the two-minute pause, the second run
        // rightly asks again: what it must not do then is lose or fail a photo.
        if Date().timeIntervalSince(pauseStarted) < 110 {
            #expect(again.status == 1)
            #expect(again.stderr.contains("MusicBrainz asked Crate to pause; it waits "), "\(again.stderr)")
            #expect(Self.identifyCalls(server) == 1)
            #expect(server.requests(path: "/ws/2/release").count == 1)
        } else {
            print("the pause was over before the second run asked: \(Int(Date().timeIntervalSince(pauseStarted))) s")
        }
        #expect(try await Self.counts(cli) == ["pending": 2, "done": 0, "failed": 0])

        // Ten minutes later (the pause forgotten) and MusicBrainz answering again: nothing was lost.
        try FileManager.default.removeItem(at: cli.root.appendingPathComponent("cache/pacing"))
        server.route("/ws/2/release", PacingFixtures.answerSearch)
        let resumed = try await cli.run(["batch", "run", "--json"], extraEnvironment: environment)
        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(try await Self.counts(cli) == ["pending": 0, "done": 2, "failed": 0])
    }

    static func counts(_ cli: CLIRunner) async throws -> [String: Int] {
        let status = try await cli.run(["batch", "status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        return ["pending": object["pending"] as? Int ?? -1, "done": object["done"] as? Int ?? -1, "failed": object["failed"] as? Int ?? -1]
    }
}
