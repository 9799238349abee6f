import ArgumentParser
import CrateCore
import CrateLive
import Foundation

/// `crate music`: the music folder index that real playback plays from.
struct MusicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "music",
        abstract: "Index your music folder and see which albums of your crate have files.",
        subcommands: [MusicScanCommand.self, MusicStatusCommand.self, MusicAddCommand.self, MusicAnalyzeCommand.self]
    )
}

/// `crate music scan [DIR…] [--json]`
struct MusicScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Index the music folders (only new or changed files are read).",
        discussion: """
        Without folders, scans the folders set in Preferences, CRATE_MUSIC_DIRS (separated by ":"), \
        or your XDG music folder (xdg-user-dir MUSIC, else ~/Music). Files are read with TagLib; \
        unchanged files (same modification time and size) are not opened again, files gone from \
        disk are dropped from the index.
        """
    )

    @Argument(help: "Folders to scan instead of the configured ones.")
    var folders: [String] = []

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        do {
            let environment = try openEnvironment()
            let settings = try environment.settings()
            let roots = folders.isEmpty ? MusicFolders.resolve(settings: settings, environment: environment.variables)
                : folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            let report = try MusicIndexer.scan(folders: roots, database: environment.database)
            if json {
                print(MusicJSON.encode(report))
            } else {
                Terminal.say("Scanned \(roots.map { Terminal.field($0) }.joined(separator: ", ")): \(report.files) files, \(report.tracks) tracks, \(report.albums) albums; \(report.matched) crate albums matched, \(report.unmatched) unmatched\(report.ambiguous > 0 ? ", \(report.ambiguous) ambiguous" : "").")
                Terminal.say("\(report.added) new, \(report.updated) changed, \(report.unchanged) unchanged, \(report.removed) removed, \(report.unreadable) unreadable.")
            }
            for folder in report.missingFolders { Terminal.warn("\(Terminal.field(folder)) does not exist or is not a folder; its files stay in the index.") }
            for loop in report.loopsSkipped { Terminal.warn("\(Terminal.field(loop)) was reached again through a symbolic link; walked once.") }
            for folder in report.unreadableFolders { Terminal.warn("\(Terminal.field(folder)) could not be opened.") }
            for folder in report.tooDeepFolders {
                Terminal.warn("\(Terminal.field(folder)) is more than \(MusicFolderWalker.maxDepth) folders deep; it was not indexed.")
            }
            if report.files == 0, report.missingFolders.count == roots.count {
                throw ExitCode(1)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }
}

/// `crate music status [--json]`
struct MusicStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the music folder index holds and which crate albums have files."
    )

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        do {
            let environment = try openEnvironment()
            let settings = try environment.settings()
            var status = try MusicStatus.make(database: environment.database,
                                              folders: MusicFolders.resolve(settings: settings, environment: environment.variables))
            status.watch = MusicWatchStatus.read(stateDirectory: environment.paths.stateDirectory)
            if json {
                print(MusicJSON.encode(status))
                return
            }
            Terminal.say("Music folders: \(status.folders.map { Terminal.field($0) }.joined(separator: ", "))")
            Terminal.say("\(status.files) files, \(status.tracks) tracks, \(status.albums) albums, \(status.unreadable.count) unreadable.")
            Terminal.say(status.watch?.sentence ?? MusicWatchStatus.notRunningSentence)
            for album in status.crateAlbums {
                let name = "\(album.id) \(Terminal.field(album.artist)) — \(Terminal.field(album.title))"
                switch album.match {
                case "matched": Terminal.say("\(name): \(album.tracks ?? 0) tracks in \(Terminal.field(album.folders.first ?? "")) (by \(album.method ?? ""))")
                case "ambiguous": Terminal.say("\(name): ambiguous (by \(album.method ?? "")): \(album.folders.map { Terminal.field($0) }.joined(separator: "; "))")
                default: Terminal.say("\(name): \(AudioPlaybackError.notInMusicFolder(albumID: album.id).message)")
                }
            }
            for file in status.unreadable {
                Terminal.say("unreadable: \(Terminal.field(PathBytes.displayName(file.path))): \(file.problem)")
            }
        } catch {
            throw fail(error)
        }
    }
}

/// `crate music status --json`.
struct MusicStatus: Encodable {
    struct CrateAlbum: Encodable {
        var id: Int64
        var artist: String
        var title: String
        /// "matched", "ambiguous" or "none".
        var match: String
        var method: String?
        var folders: [String]
        var tracks: Int?
    }
    struct Unreadable: Encodable {
        var path: String
        var problem: String
    }

    var folders: [String]
    var files: Int
    var tracks: Int
    var albums: Int
    var crateAlbums: [CrateAlbum]
    var unreadable: [Unreadable]
    /// How the running window watches the folders (absent: no window running).
    var watch: MusicWatchStatus?

    static func make(database: AppDatabase, folders: [String]) throws -> MusicStatus {
        let counts = try database.musicIndexCounts()
        let matches = try AlbumMatcher.matchAll(database: database)
        let albums = matches.map { result -> CrateAlbum in
            var album = CrateAlbum(id: result.album.id ?? 0, artist: result.album.artist, title: result.album.title, match: "none", folders: [])
            switch result.match {
            case .matched(let disk, let method):
                album.match = "matched"
                album.method = method.rawValue
                album.folders = [PathBytes.displayName(disk.directory)]
                album.tracks = disk.files.count
            case .ambiguous(let candidates, let method):
                album.match = "ambiguous"
                album.method = method.rawValue
                album.folders = candidates.map { PathBytes.displayName($0.directory) }
            case .none:
                break
            }
            return album
        }
        let unreadable = try database.unreadableMusicFiles().map { Unreadable(path: PathBytes.displayName($0.path), problem: $0.problem ?? "") }
        return MusicStatus(folders: folders, files: counts.files, tracks: counts.tracks, albums: counts.albums, crateAlbums: albums, unreadable: unreadable)
    }
}

enum MusicJSON {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return Terminal.json(data)
    }
}
