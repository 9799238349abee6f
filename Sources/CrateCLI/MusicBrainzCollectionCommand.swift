import ArgumentParser
import CrateCore
import Foundation

/// `crate mb-collection sign-in|list|use|sync`: the owned records kept in a MusicBrainz release
/// collection, both ways (docs/decisions/0047-musicbrainz-collection-sync.md).
struct MusicBrainzCollectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mb-collection",
        abstract: "Keep your owned records in a MusicBrainz collection (and bring its records in).",
        subcommands: [SignIn.self, List.self, Use.self, Sync.self]
    )

    /// The environment, the account's credentials and a MusicBrainz client paced with every
    /// other Crate process.
    static func connect() throws -> (AppEnvironment, Settings, HTTPCredentials, MusicBrainzClient) {
        let environment = try openEnvironment()
        let settings = try environment.settings()
        let credentials = try environment.keys.musicBrainzCredentials(settings.musicBrainzAccount)
        let client = MusicBrainzClient.live(settings: settings, transport: environment.transport, limiter: environment.limiter)
        return (environment, settings, credentials, client)
    }

    struct SignIn: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign-in",
            abstract: "Save your MusicBrainz user name, and the password read from standard input (kept in the Secret Service or a 0600 file).")

        @Argument(help: "Your MusicBrainz user name.")
        var user: String

        func run() throws {
            do {
                let environment = try openEnvironment()
                guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                    throw ValidationError("Type the password on standard input (for example: crate mb-collection sign-in NAME < password-file).")
                }
                let source = try environment.keys.saveMusicBrainzPassword(password)
                var settings = try environment.savedSettings()
                settings.musicBrainzAccount.user = user.trimmingCharacters(in: .whitespacesAndNewlines)
                try settings.save(paths: environment.paths)
                Terminal.say("Signed in as \(user); the password is kept \(source.description).")
            } catch let error as ValidationError {
                throw error
            } catch {
                throw fail(error)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your MusicBrainz release collections.")

        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            do {
                let (_, settings, credentials, client) = try MusicBrainzCollectionCommand.connect()
                let collections = try await client.collections(as: credentials)
                if json { return try Terminal.printJSON(collections) }
                if collections.isEmpty { Terminal.say("You have no release collections on MusicBrainz yet: make one on musicbrainz.org.") }
                for collection in collections {
                    let chosen = collection.id == settings.musicBrainzAccount.collectionID ? "  (chosen)" : ""
                    Terminal.say("\(collection.id)  \(Terminal.field(collection.name)) — \(collection.releaseCount) releases\(chosen)")
                }
            } catch {
                throw fail(error)
            }
        }
    }

    struct Use: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Choose the collection your owned records are kept in.")

        @Argument(help: "The collection's id (from `crate mb-collection list`).")
        var id: String

        func run() async throws {
            do {
                let (environment, _, credentials, client) = try MusicBrainzCollectionCommand.connect()
                guard let collection = try await client.collections(as: credentials).first(where: { $0.id == id.lowercased() }) else {
                    throw MusicBrainzCollectionError.collectionNotFound(id)
                }
                var settings = try environment.savedSettings()
                settings.musicBrainzAccount.collectionID = collection.id
                settings.musicBrainzAccount.collectionName = collection.name
                try settings.save(paths: environment.paths)
                Terminal.say("Owned records are kept in \"\(Terminal.field(collection.name))\". Run `crate mb-collection sync` to sync them now.")
            } catch {
                throw fail(error)
            }
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add owned records to the collection and own the records it has; records you removed here leave it only with --remove.")

        @Flag(help: "Also remove from the collection the records you no longer own here.")
        var remove = false

        @Flag(name: .customLong("dry-run"), help: "Show what would change; change nothing.")
        var dryRun = false

        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            do {
                let (environment, settings, credentials, client) = try MusicBrainzCollectionCommand.connect()
                guard let id = settings.musicBrainzAccount.collectionID else { throw MusicBrainzCollectionError.noCollectionChosen }
                let sync = try MusicBrainzCollectionSync(client: client, database: environment.database, account: credentials, collection: id)
                let summary = try await sync.run(confirmRemovals: remove, dryRun: dryRun)
                if json { return try Terminal.printJSON(summary) }
                Terminal.say((dryRun ? "Would do: " : "") + summary.text)
                if !summary.awaitingConfirmation.isEmpty {
                    Terminal.say("To remove them from the collection too: crate mb-collection sync --remove")
                }
            } catch {
                throw fail(error)
            }
        }
    }
}
