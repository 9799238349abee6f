import CTagLib
import Foundation

/// The tags and length of one audio file, as TagLib read them.
public struct AudioTags: Equatable, Sendable {
    public var title: String?
    public var artist: String?
    public var albumArtist: String?
    public var album: String?
    /// Raw text of the disc and track tags ("1/2", "03").
    public var discText: String?
    public var trackText: String?
    public var musicBrainzAlbumID: String?
    public var musicBrainzReleaseGroupID: String?
    public var musicBrainzTrackID: String?
    public var durationMs: Int?
    /// `R128_TRACK_GAIN` / `R128_ALBUM_GAIN`, in dB at ReplayGain's reference (`R128Gain`); nil
    /// when absent or not a Q7.8 number.
    public var r128TrackGainDb: Double?
    public var r128AlbumGainDb: Double?

    public init(title: String? = nil, artist: String? = nil, albumArtist: String? = nil, album: String? = nil, discText: String? = nil,
                trackText: String? = nil, musicBrainzAlbumID: String? = nil, musicBrainzReleaseGroupID: String? = nil,
                musicBrainzTrackID: String? = nil, durationMs: Int? = nil, r128TrackGainDb: Double? = nil, r128AlbumGainDb: Double? = nil) {
        self.title = title
        self.artist = artist
        self.albumArtist = albumArtist
        self.album = album
        self.discText = discText
        self.trackText = trackText
        self.musicBrainzAlbumID = musicBrainzAlbumID
        self.musicBrainzReleaseGroupID = musicBrainzReleaseGroupID
        self.musicBrainzTrackID = musicBrainzTrackID
        self.durationMs = durationMs
        self.r128TrackGainDb = r128TrackGainDb
        self.r128AlbumGainDb = r128AlbumGainDb
    }

    /// True when the file carries none of the tags that place it in an album.
    public var isUntagged: Bool { album == nil && artist == nil && albumArtist == nil && title == nil }
}

/// Why a file's tags could not be read.
public enum TagReadProblem: String, Error, Equatable, Sendable, Codable {
    /// Empty file.
    case empty
    /// TagLib does not know the format, or the file is damaged or truncated.
    case unreadable
    /// The container opened, but holds no audio TagLib can describe.
    case noAudio

    public var message: String {
        switch self {
        case .empty: return L10n.tr("The file is empty.")
        case .unreadable: return L10n.tr("The file is damaged, truncated or not audio Crate can read.")
        case .noAudio: return L10n.tr("The file holds no audio stream.")
        }
    }
}

extension TagReadProblem: LocalizedError {
    public var errorDescription: String? { message }
}

/// Reads tags with TagLib (through the `CTagLib` wrapper). Thread-safe: each call opens its file.
public enum TagReader {
    /// Reads `path` (a `PathBytes` string: non-UTF-8 names keep their bytes).
    public static func read(path: String) -> Result<AudioTags, TagReadProblem> {
        var info = crate_tag_info()
        let bytes = PathBytes.bytes(of: path) + [0]
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { crate_tags_read($0.baseAddress, &info) }
        }
        defer { crate_tags_free(&info) }
        switch Int(status) {
        case Int(CRATE_TAGS_OK): break
        case Int(CRATE_TAGS_NO_AUDIO): return .failure(.noAudio)
        default: return .failure(.unreadable)
        }
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            guard let pointer else { return nil }
            let value = String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : value
        }
        return .success(AudioTags(
            title: text(info.title), artist: text(info.artist), albumArtist: text(info.album_artist), album: text(info.album),
            discText: text(info.disc_number), trackText: text(info.track_number),
            musicBrainzAlbumID: text(info.mb_album_id), musicBrainzReleaseGroupID: text(info.mb_release_group_id),
            musicBrainzTrackID: text(info.mb_track_id), durationMs: info.length_ms > 0 ? Int(info.length_ms) : nil,
            r128TrackGainDb: text(info.r128_track_gain).flatMap(R128Gain.replayGainDb(fromTag:)),
            r128AlbumGainDb: text(info.r128_album_gain).flatMap(R128Gain.replayGainDb(fromTag:))
        ))
    }

    /// Writes property-map tags (`"ALBUMARTIST"`, `"DISCNUMBER"`, `"MUSICBRAINZ_ALBUMID"`, …) to
    /// `path`; an empty value removes one. Returns false when the file cannot be opened or saved.
    @discardableResult
    public static func write(_ properties: [String: String], to path: String) -> Bool {
        let keys = properties.keys.sorted()
        let keyStrings = keys.map { strdup($0) }
        let valueStrings = keys.map { strdup(properties[$0] ?? "") }
        defer {
            keyStrings.forEach { free($0) }
            valueStrings.forEach { free($0) }
        }
        let keyPointers = keyStrings.map { UnsafePointer($0) }
        let valuePointers = valueStrings.map { UnsafePointer($0) }
        let bytes = PathBytes.bytes(of: path) + [0]
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { path in
                keyPointers.withUnsafeBufferPointer { k in
                    valuePointers.withUnsafeBufferPointer { v in
                        crate_tags_write(path.baseAddress, k.baseAddress, v.baseAddress, Int32(keys.count))
                    }
                }
            }
        }
        return status == 0
    }

    /// The picture embedded in `path` (the front cover if there are several), undecoded; nil when
    /// there is none or the file cannot be read.
    public static func embeddedPicture(path: String) -> Data? {
        var data: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let bytes = PathBytes.bytes(of: path) + [0]
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { crate_tags_read_picture($0.baseAddress, &data, &size) }
        }
        guard status == 0, let data else { return nil }
        defer { free(data) }
        return Data(bytes: data, count: Int(size))
    }

    /// Embeds `picture` as the front cover of the FLAC file at `path` (tests and tools).
    @discardableResult
    public static func embedPicture(_ picture: Data, mimeType: String = "image/jpeg", in path: String) -> Bool {
        let bytes = PathBytes.bytes(of: path) + [0]
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { path in
                picture.withUnsafeBytes { raw in
                    crate_tags_write_picture(path.baseAddress, raw.bindMemory(to: UInt8.self).baseAddress, UInt(picture.count), mimeType) == 0
                }
            }
        }
    }
}
