import ArgumentParser
import CrateCore
import CrateLive
import Foundation

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show where Crate keeps its files, the library's schema, endpoints and which providers have a key."
    )

    func run() throws {
        let paths = CratePaths()
        print("Crate \(CrateVersion.string)")
        print("Directories:")
        print("  data    \(paths.dataDirectory.path)")
        print("  cache   \(paths.cacheDirectory.path)")
        print("  config  \(paths.configDirectory.path)")
        print("  state   \(paths.stateDirectory.path)")

        var problems = 0
        do {
            let database = try openDatabase(paths: paths)
            let version = try database.schemaVersion() ?? "none"
            let counts = try database.counts()
            print("Library:")
            print("  file    \(paths.databaseURL.path)")
            print("  schema  \(version) (this build knows \(AppDatabase.knownMigrations.joined(separator: ", ")))\(database.readOnlyReason == .newerVersion ? " — read-only, written by a newer Crate" : database.isReadOnly ? " — read-only, the data directory cannot be written" : "")")
            print("  albums  \(counts.albums), scans \(counts.scans), reviews \(counts.reviews)")
        } catch {
            let message = (error as? CrateError)?.message ?? "\(error)"
            print("Library:")
            print("  error   \(message)")
            problems += 1
        }

        // Read the way every command does, with no library needed to say where keys come from.
        let variables = ProcessInfo.processInfo.environment
        let (secrets, secretService) = SecretServiceBackend.probe(environment: variables)
        let settings: Settings
        do {
            settings = try Settings.load(paths: paths, environment: variables)
        } catch {
            throw fail(error)
        }
        print("Endpoints:")
        print("  musicbrainz  \(settings.endpoints.musicBrainz.absoluteString)")
        print("  coverart     \(settings.endpoints.coverArtArchive.absoluteString)")
        print("  anthropic    \(settings.endpoints.anthropic.absoluteString)")
        print("  openai       \(settings.endpoints.openAI.absoluteString)")
        print("  ollama       \(settings.endpoints.ollama.absoluteString)")
        let overrides = Settings.activeOverrides(in: variables)
        if !overrides.isEmpty {
            print("  overridden for this run by \(overrides.map { "$" + $0 }.joined(separator: ", ")) (never saved)")
        }
        print("Secret Service: \(secretService.description)")
        print("Providers (selected: \(settings.provider.rawValue)):")
        let keys = KeyStore(paths: paths, environment: variables, secrets: secrets)
        for provider in ProviderKind.allCases where provider.needsKey {
            print("  \(provider.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(keys.source(for: provider).description)")
        }
        print("  ollama     no key needed")
        if problems > 0 { throw ExitCode(1) }
    }
}
