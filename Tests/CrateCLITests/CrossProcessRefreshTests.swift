import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Stores see the CLI's writes", .tags(.process))
@MainActor
struct CrossProcessRefreshTests {
    @Test func aScanByTheCLIAppearsInOpenStores() async throws {
        let cli = try ScanCommandTests.seededCLI()
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let library = LibraryStore(database: database)
        let history = HistoryStore(database: database)
        library.start()
        history.start()
        #expect(await waitUntil(library.state, history.state) { library.state.value.albums.count == 1 && history.state.value.entries.count == 1 } != nil)

        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--offline", photo])
        #expect(result.status == 0, "\(result.stderr)")
        // Measured from the CLI's exit, which is after its commit.
        // The target is 1 s (printed below, and held by scripts/ui-change-feed-test); the test
        // waits for the stores' next states, with a ceiling that only catches a hang.
        let latency = await waitUntil(library.state, history.state) {
            library.state.value.albums.map(\.scanCount).reduce(0, +) == 2 && history.state.value.entries.count == 2
        }
        #expect(latency != nil, "the window's stores show the CLI's scan")
        print("crate scan exited → stores updated in \(latency.map { "\($0)" } ?? "never")")
    }
}
