import ArgumentParser
import CrateCore
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
            print("  schema  \(version) (this build knows \(AppDatabase.knownMigrations.joined(separator: ", ")))\(database.isReadOnly ? " — read-only, written by a newer Crate" : "")")
            print("  albums  \(counts.albums), scans \(counts.scans), reviews \(counts.reviews)")
        } catch {
            problems += 1
            let message = (error as? CrateError)?.message ?? "\(error)"
            print("Library:")
            print("  error   \(message)")
        }

        let settings: Settings
        do {
            settings = try Settings.load(paths: paths)
        } catch {
            throw fail(error)
        }
        print("Endpoints:")
        print("  musicbrainz  \(settings.endpoints.musicBrainz.absoluteString)")
        print("  coverart     \(settings.endpoints.coverArtArchive.absoluteString)")
        print("  anthropic    \(settings.endpoints.anthropic.absoluteString)")
        print("  openai       \(settings.endpoints.openAI.absoluteString)")
        print("  ollama       \(settings.endpoints.ollama.absoluteString)")
        print("Providers (selected: \(settings.provider.rawValue)):")
        let keys = KeyStore(paths: paths)
        for provider in ProviderKind.allCases where provider.needsKey {
            print("  \(provider.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(keys.source(for: provider).description)")
        }
        print("  ollama     no key needed")
        if problems > 0 { throw ExitCode(1) }
    }
}
