import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Interrupted batch runs")
struct InterruptedBatchTests {
    /// Bug: three Ctrl+C during `crate batch run` counted as three crashes on the photo being
    /// scanned, which was then failed ("interrupted 3 times; skipped") and never retried. Ctrl+C
    /// now cancels the run: the photo goes back to the queue with all its tries, exit code 130.
    @Test(.timeLimit(.minutes(6)))
    func ctrlCPutsThePhotoBackWithItsTries() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        // The provider never answers within the test: each run is interrupted while it waits.
        server.route("/v1/messages", responses: [.json("{}", delay: 60)])
        let cli = try CLIRunner()
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let added = try await cli.run(["batch", "add", photo])
        #expect(added.status == 0, "\(added.stderr)")
        let environment = cli.environment.merging(ScanEndToEndTests.environment(server)) { $1 }
        let statuses = try await BlockingWork.run { () -> [Int32] in
            var statuses: [Int32] = []
            for round in 1...4 {
                let child = try ChildProcess(["batch", "run"], environment: environment, captureOutput: false)
                let deadline = Date().addingTimeInterval(60)
                while server.requests(path: "/v1/messages").count < round, Date() < deadline { usleep(20_000) }
                kill(child.process.processIdentifier, SIGINT)
                statuses.append(child.wait())
            }
            return statuses
        }
        #expect(statuses == [130, 130, 130, 130])
        let status = try await cli.run(["batch", "status", "--json"])
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(counts["pending"] as? Int == 1)
        #expect(counts["failed"] as? Int == 0)
        let items = try AppDatabase.open(paths: CratePaths(environment: cli.environment)).batchItems()
        #expect(items.first?.attempts == 0)
    }

    /// Bug: three `crate batch run`s ending in the provider's 529 (or 429, 500, 503) failed the
    /// photo as "interrupted 3 times" for good. A server's error is not the photo's fault.
    @Test(.timeLimit(.minutes(6)))
    func overloadedProviderRunsKeepThePhotoQueued() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/messages", responses: [.json(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, status: 529)])
        let cli = try CLIRunner()
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        _ = try await cli.run(["batch", "add", photo])
        for _ in 1...4 {
            let run = try await cli.run(["batch", "run"], extraEnvironment: ScanEndToEndTests.environment(server))
            #expect(run.status == 1)
            #expect(run.stderr.contains("overloaded"), "\(run.stderr)")
        }
        let items = try AppDatabase.open(paths: CratePaths(environment: cli.environment)).batchItems()
        #expect(items.map(\.state) == [.pending])
        #expect(items.first?.attempts == 0)
    }
}
