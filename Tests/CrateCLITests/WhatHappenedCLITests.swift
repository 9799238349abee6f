import CrateCore
import Foundation
import Testing

@Suite("CLI messages say what happened")
struct WhatHappenedCLITests {
    /// Bug: `crate wall --count -5` said "Missing value for '--count <count>'": the parser took
    /// `-5` for an option. The value now reaches the range check, which says what is allowed.
    @Test func aNegativeCountSaysWhatIsAllowed() async throws {
        let cli = try CLIRunner()
        let result = try await cli.run(["wall", "--count", "-5"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
        #expect(result.stderr.contains("--count must be a whole number from"), "\(result.stderr)")
    }

    /// Bug: `crate batch add` queued missing files, folders and devices, which then failed one by
    /// one in `batch run`. They are refused at add time with the reason; the real photos are queued.
    @Test func batchAddRefusesWhatIsNotAPhotoFile() async throws {
        let cli = try CLIRunner()
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let folder = ScanCommandTests.fixtures.path
        let missing = cli.root.appendingPathComponent("nowhere.jpg").path
        let result = try await cli.run(["batch", "add", photo, folder, missing, "/dev/null"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Queued 1 photo."), "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(result.stderr.contains("nowhere.jpg"))
        #expect(result.stderr.contains("device"))
        let status = try await cli.run(["batch", "status", "--json"])
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(counts["pending"] as? Int == 1)
    }
}
