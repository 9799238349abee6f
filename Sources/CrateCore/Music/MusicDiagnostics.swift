import Foundation

/// Whether the GStreamer elements one audio format needs are installed, and which Debian package
/// brings them when they are not.
public struct FormatSupport: Equatable, Sendable, Codable {
    public var format: String
    /// Each group needs one of its elements (a demuxer or parser, then a decoder).
    public var elements: [[String]]
    public var package: String
    /// Elements of a group none of which is installed (empty when the format plays).
    public var missing: [String]

    public var isAvailable: Bool { missing.isEmpty }
}

/// The formats the music folder index reads, and what GStreamer needs to play each.
public enum AudioFormatSupport {
    /// Format, element groups (one of each group must exist), package that installs them.
    public static let requirements: [(format: String, elements: [[String]], package: String)] = [
        ("FLAC", [["flacparse"], ["flacdec", "avdec_flac"]], "gstreamer1.0-plugins-good"),
        ("Ogg Vorbis", [["oggdemux"], ["vorbisdec", "avdec_vorbis"]], "gstreamer1.0-plugins-base"),
        ("Opus", [["oggdemux"], ["opusdec", "avdec_opus"]], "gstreamer1.0-plugins-base"),
        ("MP3", [["mpegaudioparse"], ["mpg123audiodec", "avdec_mp3", "mad"]], "gstreamer1.0-plugins-good"),
        ("M4A / AAC", [["qtdemux"], ["avdec_aac", "faad", "fdkaacdec"]], "gstreamer1.0-libav"),
        ("WAV", [["wavparse"]], "gstreamer1.0-plugins-good"),
        ("Playback pipeline", [["playbin"], ["audioconvert"], ["audioresample"]], "gstreamer1.0-plugins-base"),
    ]

    /// Every format's support, asking `hasElement` (GStreamer's registry in the app; a fake in tests).
    public static func check(hasElement: (String) -> Bool) -> [FormatSupport] {
        var known: [String: Bool] = [:]
        for name in Set(requirements.flatMap { $0.elements.flatMap { $0 } }) { known[name] = hasElement(name) }
        return requirements.map { requirement in
            let missing = requirement.elements.filter { group in !group.contains { known[$0] == true } }.map { $0.joined(separator: " or ") }
            return FormatSupport(format: requirement.format, elements: requirement.elements, package: requirement.package, missing: missing)
        }
    }
}

/// What the Diagnostics view shows: the music folders and their index, crate albums without files
/// or with several candidates, GStreamer's support per format, the player and MPRIS, and the
/// "CDs" wallet with how every playlist entry resolved.
public struct MusicDiagnostics: Equatable, Sendable {
    public struct AlbumProblem: Equatable, Sendable {
        public var albumID: Int64
        public var artist: String
        public var title: String
        /// The candidate folders (ambiguous) or empty (no files).
        public var folders: [String]
    }

    public var folders: [FolderState]
    public var counts: MusicIndexCounts
    public var matchedCount: Int
    public var unmatched: [AlbumProblem]
    public var ambiguous: [AlbumProblem]
    public var formats: [FormatSupport]
    public var wallet: CDWallet

    public struct FolderState: Equatable, Sendable {
        public var path: String
        public var exists: Bool
    }

    /// Reads the index, matches every crate album and builds the wallet (blocking: call off the
    /// main thread).
    public static func build(folders: [String], database: AppDatabase, formats: [FormatSupport]) throws -> MusicDiagnostics {
        let counts = try database.musicIndexCounts()
        var unmatched: [AlbumProblem] = [], ambiguous: [AlbumProblem] = []
        var matched = 0
        for result in try AlbumMatcher.matchAll(database: database) {
            let album = result.album
            switch result.match {
            case .matched: matched += 1
            case .none:
                unmatched.append(AlbumProblem(albumID: album.id ?? 0, artist: album.artist, title: album.title, folders: []))
            case .ambiguous(let candidates, _):
                ambiguous.append(AlbumProblem(albumID: album.id ?? 0, artist: album.artist, title: album.title,
                                              folders: candidates.map { PathBytes.displayName($0.directory) }))
            }
        }
        let wallet = try CDWalletBuilder.build(folders: folders, database: database)
        var isDirectory: ObjCBool = false
        let states = folders.map { FolderState(path: $0, exists: FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue) }
        return MusicDiagnostics(folders: states, counts: counts, matchedCount: matched, unmatched: unmatched,
                                ambiguous: ambiguous, formats: formats, wallet: wallet)
    }
}
