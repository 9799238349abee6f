import Foundation

/// One audio file of the music folder index (`music_file`), with what Crate made of its tags.
public struct MusicFile: Identifiable, Equatable, Sendable, Codable {
    public enum Status: String, Codable, Sendable {
        /// Tags (or the folder names) place the file in an album.
        case ok
        /// Empty, damaged, truncated or not audio: listed so `crate music status` can say so.
        case unreadable
    }

    public var id: Int64?
    /// A `PathBytes` string: non-UTF-8 names keep their bytes.
    public var path: String
    public var mtimeNs: Int64
    public var size: Int64
    public var status: Status
    /// Why a file is unreadable, or what was ignored in a readable one ("disc tag 999 ignored").
    public var problem: String?
    public var title: String
    public var artist: String?
    /// The album artist used for matching: the album-artist tag, the artist tag, or the folder.
    public var albumArtist: String
    public var album: String
    public var disc: Int
    public var track: Int?
    public var durationMs: Int?
    public var musicBrainzAlbumID: String?
    public var musicBrainzReleaseGroupID: String?
    public var musicBrainzTrackID: String?
    /// `MusicText.albumKey(artist:title:)` of albumArtist + album.
    public var albumKey: String
    /// Files with the same group key are one album on disk: the release id when tagged, else the
    /// album's folder (disc sub-folders folded into it) plus the album key.
    public var groupKey: String
    /// False when no tag named the album and the folder names were used.
    public var tagged: Bool
    /// The file's `R128_ALBUM_GAIN`, in dB at ReplayGain's reference (`R128Gain`); nil without one.
    public var r128AlbumGainDb: Double?

    public init(id: Int64? = nil, path: String, mtimeNs: Int64, size: Int64, status: Status, problem: String? = nil, title: String,
                artist: String? = nil, albumArtist: String, album: String, disc: Int = 1, track: Int? = nil, durationMs: Int? = nil,
                musicBrainzAlbumID: String? = nil, musicBrainzReleaseGroupID: String? = nil, musicBrainzTrackID: String? = nil,
                albumKey: String, groupKey: String, tagged: Bool, r128AlbumGainDb: Double? = nil) {
        self.id = id
        self.path = path
        self.mtimeNs = mtimeNs
        self.size = size
        self.status = status
        self.problem = problem
        self.title = title
        self.artist = artist
        self.albumArtist = albumArtist
        self.album = album
        self.disc = disc
        self.track = track
        self.durationMs = durationMs
        self.musicBrainzAlbumID = musicBrainzAlbumID
        self.musicBrainzReleaseGroupID = musicBrainzReleaseGroupID
        self.musicBrainzTrackID = musicBrainzTrackID
        self.albumKey = albumKey
        self.groupKey = groupKey
        self.tagged = tagged
        self.r128AlbumGainDb = r128AlbumGainDb
    }

    /// A `file://` URI for GStreamer, with every byte of the path percent-encoded as needed.
    public var uri: String { Self.uri(forPath: path) }

    public static func uri(forPath path: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        var text = "file://"
        for byte in PathBytes.bytes(of: path) {
            if allowed.contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += String(format: "%%%02X", byte)
            }
        }
        return text
    }
}

extension MusicFile {
    /// Largest disc number believed; a tag claiming more (999) is read as disc 1 and noted.
    public static let maxDisc = 99

    /// What Crate makes of a file: its tags, with the folder names standing in for missing ones.
    public static func make(found: FoundFile, tags: Result<AudioTags, TagReadProblem>) -> MusicFile {
        let components = found.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let fileName = components.last ?? found.path
        let albumDirectory = Self.albumDirectory(of: found.path)
        let folderNames = Self.folderNames(albumDirectory: albumDirectory)
        let stem = fileName.contains(".") ? String(fileName[..<fileName.lastIndex(of: ".")!]) : fileName
        let (nameNumber, nameTitle) = Self.splitNumber(stem)
        var problems: [String] = []
        let readable: AudioTags?
        switch tags {
        case .success(let value): readable = value
        case .failure(let problem):
            readable = nil
            problems.append(found.size == 0 ? TagReadProblem.empty.message : problem.message)
        }
        let value = readable ?? AudioTags()
        var disc = 1
        if let text = value.discText, let number = Self.leadingNumber(text) {
            if (1...maxDisc).contains(number) {
                disc = number
            } else {
                problems.append("Disc tag \"\(text)\" ignored.")
            }
        } else if let folderDisc = Self.discFolderNumber(found.path) {
            disc = folderDisc
        }
        let track = value.trackText.flatMap(Self.leadingNumber).flatMap { $0 > 0 && $0 < 10_000 ? $0 : nil } ?? nameNumber
        let albumArtist = value.albumArtist ?? value.artist ?? folderNames.artist
        let album = value.album ?? folderNames.album
        let key = MusicText.albumKey(artist: albumArtist, title: album)
        let groupKey = value.musicBrainzAlbumID.map { "mb:" + $0.lowercased() } ?? "dir:" + albumDirectory + "\u{1F}" + key
        return MusicFile(
            path: found.path, mtimeNs: found.mtimeNs, size: found.size,
            status: readable == nil ? .unreadable : .ok,
            problem: problems.isEmpty ? nil : problems.joined(separator: " "),
            title: value.title ?? nameTitle, artist: value.artist, albumArtist: albumArtist, album: album,
            disc: disc, track: track, durationMs: value.durationMs,
            musicBrainzAlbumID: value.musicBrainzAlbumID?.lowercased(),
            musicBrainzReleaseGroupID: value.musicBrainzReleaseGroupID?.lowercased(),
            musicBrainzTrackID: value.musicBrainzTrackID?.lowercased(),
            albumKey: key, groupKey: groupKey, tagged: value.album != nil, r128AlbumGainDb: value.r128AlbumGainDb
        )
    }

    /// The folder holding the album: the file's folder, or its parent for "CD1"/"Disc 2" folders.
    static func albumDirectory(of path: String) -> String {
        var directory = (path as NSString).deletingLastPathComponent
        let last = (directory as NSString).lastPathComponent
        if isDiscFolder(last) { directory = (directory as NSString).deletingLastPathComponent }
        return directory
    }

    static func isDiscFolder(_ name: String) -> Bool {
        discFolderNumber(name: name) != nil
    }

    static func discFolderNumber(_ path: String) -> Int? {
        discFolderNumber(name: ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent)
    }

    static func discFolderNumber(name: String) -> Int? {
        let lower = name.lowercased()
        for prefix in ["cd", "disc", "disk"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            if let number = Int(rest), (1...maxDisc).contains(number) { return number }
        }
        return nil
    }

    /// Artist and album from folder names: ".../Artist/Album/" or ".../Artist - Album/".
    static func folderNames(albumDirectory: String) -> (artist: String, album: String) {
        let name = (albumDirectory as NSString).lastPathComponent
        for dash in [" - ", " – ", " — "] {
            if let range = name.range(of: dash) {
                let artist = String(name[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
                let album = String(name[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                if !artist.isEmpty, !album.isEmpty { return (artist, album) }
            }
        }
        let parent = ((albumDirectory as NSString).deletingLastPathComponent as NSString).lastPathComponent
        return (parent.isEmpty ? "Unknown Artist" : parent, name.isEmpty ? "Unknown Album" : name)
    }

    /// "03 - Song" → (3, "Song"); "Song" → (nil, "Song").
    static func splitNumber(_ stem: String) -> (Int?, String) {
        let digits = stem.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 4, let number = Int(digits) else { return (nil, stem) }
        let rest = stem.dropFirst(digits.count).drop { $0 == " " || $0 == "-" || $0 == "." || $0 == "_" }
        return (number, rest.isEmpty ? stem : String(rest))
    }

    /// The number at the start of "3/12", "03", "2 of 2".
    static func leadingNumber(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        return Int(digits)
    }
}
