import ArgumentParser
import CrateCore
import CrateLive
import Foundation

/// `crate music add [--dry-run] [--json] [--no-artwork]`
struct MusicAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add the albums of your music folder that are not in your crate yet.",
        discussion: """
        Uses the index (`crate music scan`). An album on disk that no crate album matches (by \
        release id, release-group id or name; ambiguous ones count as matched) is added with its \
        track list from the files. Artwork comes from the Cover Art Archive when the files carry a \
        MusicBrainz release id (as Picard and beets tag them), else (or when the archive has none) \
        from a cover/folder/front image in the album's folder or a picture embedded in its files; \
        `crate repair` fetches what is left.
        """
    )

    @Flag(help: "Only list the albums that would be added.")
    var dryRun = false

    @Flag(help: "Print the albums as JSON.")
    var json = false

    @Flag(help: "Do not fetch artwork now (`crate repair` does it later).")
    var noArtwork = false

    func run() async throws {
        let added: [MusicAlbumAdder.Added]
        var artwork: RepairSummary?
        do {
            let environment = try openEnvironment()
            added = try MusicAlbumAdder.add(database: environment.database, dryRun: dryRun,
                                            artwork: noArtwork ? nil : ArtworkCache(paths: environment.paths))
            if !dryRun, !noArtwork, added.contains(where: \.hasReleaseID) {
                let pipeline = try environment.services().makeScanPipeline()
                artwork = await pipeline.repairPendingDetails(limit: added.count)
            }
        } catch {
            throw fail(error)
        }
        if json {
            print(MusicJSON.encode(added))
            return
        }
        if added.isEmpty {
            Terminal.say("Every album in your music folder is already in your crate.")
            return
        }
        for album in added {
            let id = album.id.map { " [crate \($0)]" } ?? ""
            Terminal.say("\(dryRun ? "Would add" : "Added") \(Terminal.field(album.artist)) — \(Terminal.field(album.title)), \(album.tracks) tracks\(id)")
        }
        if !dryRun {
            let withoutArt = added.filter { !$0.hasReleaseID && !$0.hasLocalArtwork }.count
            if withoutArt > 0 {
                Terminal.say("\(withoutArt) album(s) have no MusicBrainz release id in their tags and no usable cover in their folder or files: no artwork.")
            }
            if let reason = artwork?.stoppedEarly { Terminal.warn("Artwork: \(reason). Run `crate repair` later.") }
        }
    }
}
