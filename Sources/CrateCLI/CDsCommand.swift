import ArgumentParser
import CrateCore
import CrateLive
import Foundation

/// `crate cds [--json] [--diagnostics]`: the "CDs" wallet.
struct CDsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cds",
        abstract: "Show the \"CDs\" wallet: every album named by the CDs playlist in your music folder.",
        discussion: """
        The wallet is a playlist file named CDs (CDs.m3u, CDs.m3u8 or CDs.xspf) in a music folder. \
        Every entry means its whole album (multi-disc albums are one disc), from the music folder \
        index (`crate music scan`). The music folders are the configured ones and any folder \
        `crate music scan DIR` indexed. Albums are sorted by artist (a leading "The", "A" or "An" is \
        ignored for sorting), then album. With several CDs playlists, the most recently modified \
        wins, then the one with most entries, then the first by path.
        """
    )

    @Flag(help: "Print the wallet as JSON.")
    var json = false

    @Flag(help: "Also show which playlist was chosen and why, and how each entry resolved.")
    var diagnostics = false

    func run() async throws {
        let wallet: CDWallet
        let folders: [String]
        do {
            let environment = try openEnvironment()
            // The configured folders and every folder `crate music scan DIR` indexed.
            folders = MusicFolders.adding(indexed: try environment.database.indexedMusicFolders(),
                                          to: MusicFolders.resolve(settings: try environment.settings(), environment: environment.variables))
            wallet = try CDWalletBuilder.build(folders: folders, database: environment.database)
        } catch {
            throw fail(error)
        }
        if json {
            print(MusicJSON.encode(wallet))
        } else {
            if wallet.playlist == nil {
                Terminal.warn(wallet.choice)
                Terminal.warn("Looked in: \(folders.map { Terminal.field(PathBytes.displayName($0)) }.joined(separator: ", ")). "
                              + "To add a folder, index it with `crate music scan DIR`, or set it in Preferences or CRATE_MUSIC_DIRS.")
            }
            for (index, disc) in wallet.discs.enumerated() {
                let discs = disc.discCount > 1 ? " (\(disc.discCount) discs)" : ""
                let id = disc.crateAlbumID.map { "  [crate \($0)]" } ?? ""
                Terminal.say("\(index + 1). \(Terminal.field(disc.artist)) — \(Terminal.field(disc.title))\(discs), \(disc.trackCount) tracks\(id)")
            }
            if diagnostics {
                Terminal.say("")
                Terminal.say("Playlist: \(wallet.playlist.map { Terminal.field(PathBytes.displayName($0.path)) } ?? "none")")
                Terminal.say("Why: \(wallet.choice)")
                for candidate in wallet.candidates where candidate != wallet.playlist {
                    Terminal.say("  also found: \(Terminal.field(PathBytes.displayName(candidate.path))) (\(candidate.itemCount) entries)")
                }
                Terminal.say("Entries: \(wallet.resolvedCount) resolved, \(wallet.unresolvedCount) unresolved")
                for entry in wallet.entries {
                    let outcome = entry.problem.map { "unresolved: \($0)" } ?? "resolved"
                    Terminal.say("  \(entry.line): \(Terminal.field(entry.text)) — \(outcome)")
                }
            }
        }
        if wallet.playlist == nil { throw ExitCode(1) }
    }
}
