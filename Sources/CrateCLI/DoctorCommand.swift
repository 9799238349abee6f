import ArgumentParser
import CrateAudio
import CrateCore
import CrateLive
import Foundation

/// `crate doctor`: where things are and what is wrong. Paths and endpoints come from the
/// environment, so every line is spelled safe for a terminal (`Terminal.say`).
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show where Crate keeps its files, the library's schema, endpoints and which providers have a key."
    )

    func run() throws {
        let paths = CratePaths()
        Terminal.say("Crate \(CrateVersion.string)")
        Terminal.say("Directories:")
        Terminal.say("  data    \(paths.dataDirectory.path)")
        Terminal.say("  cache   \(paths.cacheDirectory.path)")
        Terminal.say("  config  \(paths.configDirectory.path)")
        Terminal.say("  state   \(paths.stateDirectory.path)")

        var problems = 0
        do {
            let database = try openDatabase(paths: paths)
            let version = try database.schemaVersion() ?? "none"
            let counts = try database.counts()
            Terminal.say("Library:")
            Terminal.say("  file    \(paths.databaseURL.path)")
            Terminal.say("  schema  \(version) (this build knows \(AppDatabase.knownMigrations.joined(separator: ", ")))\(database.readOnlyReason == .newerVersion ? " — read-only, written by a newer Crate" : database.isReadOnly ? " — read-only, the data directory cannot be written" : "")")
            Terminal.say("  albums  \(counts.albums), scans \(counts.scans), reviews \(counts.reviews)")
        } catch {
            let message = UserMessage.text(for: error)
            Terminal.say("Library:")
            Terminal.say("  error   \(message)")
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
        Terminal.say("Endpoints:")
        Terminal.say("  musicbrainz  \(settings.endpoints.musicBrainz.absoluteString)")
        Terminal.say("  coverart     \(settings.endpoints.coverArtArchive.absoluteString)")
        Terminal.say("  anthropic    \(settings.endpoints.anthropic.absoluteString)")
        Terminal.say("  openai       \(settings.endpoints.openAI.absoluteString)")
        Terminal.say("  ollama       \(settings.endpoints.ollama.absoluteString)")
        Terminal.say("  listenbrainz \(settings.endpoints.listenBrainz.absoluteString)")
        Terminal.say("  lb-labs      \(settings.endpoints.listenBrainzLabs.absoluteString)")
        Terminal.say("  discogs      \(settings.endpoints.discogs.absoluteString)")
        let overrides = Settings.activeOverrides(in: variables)
        if !overrides.isEmpty {
            Terminal.say("  overridden for this run by \(overrides.map { "$" + $0 }.joined(separator: ", ")) (never saved)")
        }
        Terminal.say("Secret Service: \(secretService.description)")
        Terminal.say("Providers (selected: \(settings.provider.rawValue)):")
        let keys = KeyStore(paths: paths, environment: variables, secrets: secrets)
        for provider in ProviderKind.allCases where provider.needsKey {
            Terminal.say("  \(provider.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(keys.source(for: provider).description)")
        }
        Terminal.say("  ollama     no key needed")
        // The token itself is never printed: only where it comes from.
        let token = keys.listenBrainzToken()
        Terminal.say("ListenBrainz:")
        Terminal.say("  user    \(settings.listenBrainzUser ?? "none (the Crate Wall uses your crate instead)")")
        Terminal.say("  token   \(token.token == nil && token.source == .missing ? "none (favourites and dislikes stay on this computer)" : token.source.description)")
        let discogs = keys.discogsToken()
        Terminal.say("Discogs token: \(discogs.token == nil ? "none (no Discogs links)" : discogs.source.description)")
        // Opened here on purpose (every other command opens a plugin only when it needs it).
        Terminal.say("Plugins (opened at first use):")
        for plugin in CratePlugin.allCases {
            let name = plugin.fileName.padding(toLength: 22, withPad: " ", startingAt: 0)
            do throws(PluginError) {
                let path = try PluginLoader.locate(plugin)
                _ = try PluginLoader.table(plugin)
                Terminal.say("  \(name) \(path)")
            } catch {
                Terminal.say("  \(name) \(error.message)")
            }
        }
        // Looked for, not started: it starts with the first album played.
        let player = PlayerProcess.executableName.padding(toLength: 22, withPad: " ", startingAt: 0)
        do throws(PlayerProcessError) {
            Terminal.say("Player process (started at the first album played):\n  \(player) \(try PlayerProcess.locate())")
        } catch {
            Terminal.say("Player process (started at the first album played):\n  \(player) \(error.message)")
        }
        if problems > 0 { throw ExitCode(1) }
    }
}
