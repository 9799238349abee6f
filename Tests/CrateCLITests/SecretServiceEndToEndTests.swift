import CrateCore
import CrateLive
import CrateTestSupport
import Foundation
import Testing

/// A key saved through Preferences lands in a real Secret Service (libsecret over D-Bus) and a
/// separate `crate scan` process finds it there. Runs only inside the throwaway keyring session
/// that `scripts/test-secret-service` starts (it would otherwise write to the user's own keyring).
@Suite("Secret Service end to end", .tags(.process, .slow))
struct SecretServiceEndToEndTests {
    static let enabled = ProcessInfo.processInfo.environment["CRATE_EXPECT_SECRET_SERVICE"] == "1"

    /// Bug: the CLI built its key store without the Secret Service, so after Preferences saved a
    /// key there (and deleted the key file) `crate scan`, `crate review` and `crate doctor`
    /// reported no key.
    @Test(.enabled(if: enabled)) @MainActor
    func aKeySavedInPreferencesIsUsedByCrateScan() async throws {
        let session = ProcessInfo.processInfo.environment
        let (backend, status) = SecretServiceBackend.probe(environment: session)
        let secrets = try #require(backend, "no Secret Service in the test session: \(status.description)")

        let server = try FixtureServer()
        defer { server.stop() }
        ScanEndToEndTests.serve(server, cover: try Data(contentsOf: ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg")))
        let cli = try CLIRunner()
        let paths = CratePaths(environment: cli.environment)
        let canary = "sk-ant-SECRET-\(UUID().uuidString)"

        // Given the key saved the way the Preferences window saves it
        let environment = AppEnvironment(paths: paths, variables: cli.environment, database: try AppDatabase.open(paths: paths), secrets: secrets)
        let preferences = PreferencesStore(environment: environment).provider
        preferences.selectProvider(.anthropic)
        preferences.setEndpoint(server.baseURL.absoluteString)
        preferences.key.setSecret(canary)
        #expect(preferences.save())
        #expect(!FileManager.default.fileExists(atPath: environment.keys.keyFileURL(for: .anthropic).path))

        // When another process scans, with the session bus but no key in its environment
        var extra = ScanEndToEndTests.environment(server)
        extra["CRATE_PROVIDER"] = nil
        extra["CRATE_PROVIDER_URL"] = nil
        extra["ANTHROPIC_API_KEY"] = nil
        extra["DBUS_SESSION_BUS_ADDRESS"] = session["DBUS_SESSION_BUS_ADDRESS"]
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--json", photo], extraEnvironment: extra)

        // Then it identified the photo with that key, and doctor says where the key is
        #expect(result.status == 0, "\(result.stderr)")
        let calls = server.requests(path: "/v1/messages")
        #expect(!calls.isEmpty)
        #expect(calls.allSatisfy { $0.headers["x-api-key"] == canary })
        let doctor = try await cli.run(["doctor"], extraEnvironment: extra)
        #expect(doctor.stdout.contains("anthropic  from the Secret Service"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("Secret Service: available"))
        #expect(!doctor.stdout.contains(canary) && !result.stdout.contains(canary))
    }
}
