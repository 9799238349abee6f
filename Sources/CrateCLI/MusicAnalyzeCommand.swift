import ArgumentParser
import CrateAudio
import CrateCore
import Foundation

/// `crate music analyze [--album ID] [--again]`: album gain measured with GStreamer's rganalysis
/// for albums matched in the music folder, stored in the library and never written into the
/// files (docs/decisions/0046-replaygain-and-lossy-gapless.md). GStreamer runs in this process:
/// an analysis is a short pipeline with no sound output, not the player.
struct MusicAnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure album gain (ReplayGain) for albums in the music folder.",
        discussion: """
        Each album is decoded whole, track after track, and its gain is stored in Crate's library: \
        your files are never written. Albums whose gain is already stored (for the same folder) are \
        skipped unless --again is given, and so are albums whose files all carry R128_ALBUM_GAIN \
        (Opus): that tag is used. A REPLAYGAIN_ALBUM_GAIN tag in the files still wins when the \
        album plays.
        """
    )

    @Option(help: "Only this crate album (its id, from `crate music status`).")
    var album: Int64?

    @Flag(help: "Measure again albums whose gain is already stored.")
    var again = false

    func run() async throws {
        do {
            let environment = try openEnvironment()
            let database = environment.database
            var matched: [(album: Album, disk: DiskAlbum)] = []
            for result in try AlbumMatcher.matchAll(database: database) {
                guard album == nil || result.album.id == album else { continue }
                if case .matched(let disk, _) = result.match { matched.append((result.album, disk)) }
            }
            if let album, matched.isEmpty { throw AudioPlaybackError.notInMusicFolder(albumID: album) }
            let analyzer = try ReplayGainAnalyzer()
            var measured = 0, failed = 0, stored = 0, tagged = 0
            for (album, disk) in matched {
                guard let albumID = album.id else { continue }
                let name = "\(albumID) \(Terminal.field(album.artist)) — \(Terminal.field(album.title))"
                if !again, try database.albumGain(albumID: albumID, directory: disk.directory) != nil {
                    stored += 1
                    continue
                }
                // Its R128 tags give the gain the player uses (they win over a measurement).
                if !again, disk.r128AlbumGainDb != nil {
                    tagged += 1
                    continue
                }
                let files = AlbumMatcher.tracks(of: disk, albumID: albumID).map(\.file.path)
                do {
                    let gain = try analyzer.albumGain(files: files)
                    try database.storeAlbumGain(gain, albumID: albumID, directory: disk.directory)
                    Terminal.say(String(format: "%@: album gain %+.2f dB, peak %.3f", name, gain.gainDb, gain.peak))
                    measured += 1
                } catch let error as AlbumGainError {
                    Terminal.warn("\(name): \(error.message)")
                    failed += 1
                }
            }
            var summary = measured == 1 ? "1 album measured" : "\(measured) albums measured"
            if failed > 0 { summary += ", \(failed) failed" }
            if stored > 0 { summary += ", \(stored) measured before (--again measures them again)" }
            if tagged > 0 { summary += ", \(tagged) with R128 gain tags" }
            Terminal.say(summary + ".")
            if failed > 0 { throw ExitCode(1) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }
}
