import Foundation
import Synchronization
import Testing
@testable import CrateCore

@Suite("Settings and keys")
struct SettingsTests {
    @Test func environmentOverridesEndpointsAndProvider() throws {
        let dir = try TemporaryDirectory()
        let settings = try Settings.load(paths: dir.paths, environment: [
            "CRATE_MUSICBRAINZ_URL": "http://127.0.0.1:8080/ws/2",
            "CRATE_PROVIDER": "Ollama",
        ])
        #expect(settings.endpoints.musicBrainz.absoluteString == "http://127.0.0.1:8080/ws/2")
        #expect(settings.endpoints.coverArtArchive == Endpoints.defaults.coverArtArchive)
        #expect(settings.provider == .ollama)
    }

    @Test func providerURLAdvancedSearchAndContactFromEnvironment() throws {
        let dir = try TemporaryDirectory()
        let settings = try Settings.load(paths: dir.paths, environment: [
            "CRATE_PROVIDER": "anthropic", "CRATE_PROVIDER_URL": "http://127.0.0.1:5555",
            "CRATE_ADVANCED_SEARCH": "1", "CRATE_CONTACT": "me@example.org",
        ])
        #expect(settings.endpoints.anthropic.absoluteString == "http://127.0.0.1:5555")
        #expect(settings.endpoints.openAI == Endpoints.defaults.openAI)
        #expect(settings.advancedSearch)
        #expect(settings.musicBrainzContact == "me@example.org")
    }

    @Test func badValuesAreClearErrors() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: SettingsError.invalidEndpoint(variable: "CRATE_COVERART_URL", value: "file:///etc")) {
            try Settings.load(paths: dir.paths, environment: ["CRATE_COVERART_URL": "file:///etc"])
        }
        #expect(throws: SettingsError.unknownProvider("gpt")) {
            try Settings.load(paths: dir.paths, environment: ["CRATE_PROVIDER": "gpt"])
        }
        try FileManager.default.createDirectory(at: dir.paths.configDirectory, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: dir.paths.settingsURL)
        #expect(throws: SettingsError.malformed(path: dir.paths.settingsURL.path)) {
            try Settings.load(paths: dir.paths, environment: [:])
        }
    }

    @Test func settingsRoundTripThroughTheFile() throws {
        let dir = try TemporaryDirectory()
        var settings = Settings()
        settings.provider = .anthropic
        settings.advancedSearch = true
        try settings.save(paths: dir.paths)
        #expect(try Settings.load(paths: dir.paths, environment: [:]) == settings)
    }

    @Test func keyFromEnvironmentThenFile() throws {
        let dir = try TemporaryDirectory()
        let keys = KeyStore(paths: dir.paths, environment: ["ANTHROPIC_API_KEY": "sk-env"])
        #expect(keys.key(for: .anthropic) == "sk-env")
        #expect(keys.source(for: .anthropic) == .environment("ANTHROPIC_API_KEY"))
        #expect(keys.source(for: .openai) == .missing)

        let fileKeys = KeyStore(paths: dir.paths, environment: [:])
        try fileKeys.storeKey("sk-file", for: .openai)
        var info = stat()
        #expect(stat(fileKeys.keyFileURL(for: .openai).path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(fileKeys.key(for: .openai) == "sk-file")
    }

    @Test func aKeyFileReadableByOthersIsRefused() throws {
        let dir = try TemporaryDirectory()
        let keys = KeyStore(paths: dir.paths, environment: [:])
        try keys.storeKey("sk-secret", for: .anthropic)
        chmod(keys.keyFileURL(for: .anthropic).path, 0o644)
        #expect(keys.key(for: .anthropic) == nil)
        #expect(keys.source(for: .anthropic) == .refusedInsecureFile(keys.keyFileURL(for: .anthropic).path))
        #expect(!keys.source(for: .anthropic).description.contains("sk-secret"))
    }
}

/// An in-memory Secret Service.
private final class FakeSecrets: SecretBackend, Sendable {
    private let state = Mutex<(keys: [ProviderKind: String], accepts: Bool)>(([:], true))
    var keys: [ProviderKind: String] {
        get { state.withLock { $0.keys } }
        set { state.withLock { $0.keys = newValue } }
    }
    var accepts: Bool {
        get { state.withLock { $0.accepts } }
        set { state.withLock { $0.accepts = newValue } }
    }
    func lookup(provider: ProviderKind) -> String? { keys[provider] }
    func store(_ key: String, provider: ProviderKind) -> Bool {
        state.withLock { state in
            guard state.accepts else { return false }
            state.keys[provider] = key
            return true
        }
    }
}

@Suite("Secret Service keys")
struct SecretKeyTests {
    @Test func savedInTheSecretServiceWhenThereIsOne() throws {
        let dir = try TemporaryDirectory()
        let secrets = FakeSecrets()
        let keys = KeyStore(paths: dir.paths, environment: [:], secrets: secrets)
        #expect(try keys.save("sk-secret", for: .anthropic) == .secretService)
        #expect(keys.key(for: .anthropic) == "sk-secret")
        #expect(!FileManager.default.fileExists(atPath: keys.keyFileURL(for: .anthropic).path))
    }

    @Test func fallsBackToA0600FileWithoutOne() throws {
        let dir = try TemporaryDirectory()
        let secrets = FakeSecrets()
        secrets.accepts = false
        let keys = KeyStore(paths: dir.paths, environment: [:], secrets: secrets)
        #expect(try keys.save("sk-file", for: .openai) == .file(keys.keyFileURL(for: .openai).path))
        var info = stat()
        #expect(stat(keys.keyFileURL(for: .openai).path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(keys.key(for: .openai) == "sk-file")
    }

    @Test func theEnvironmentStillWins() throws {
        let dir = try TemporaryDirectory()
        let secrets = FakeSecrets()
        secrets.keys[.anthropic] = "sk-stored"
        let keys = KeyStore(paths: dir.paths, environment: ["ANTHROPIC_API_KEY": "sk-env"], secrets: secrets)
        #expect(keys.key(for: .anthropic) == "sk-env")
    }
}
