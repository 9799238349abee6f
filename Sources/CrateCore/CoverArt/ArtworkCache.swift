import Foundation

/// Album art on disk (`<mbid>-500.jpg`, `<mbid>-200.jpg` under `CratePaths.artworkDirectory`)
/// plus the most recent ~30 images in memory.
///
/// Files are named only by validated `MBID`s, so nothing from the network chooses a path.
/// Writes are atomic (temporary file, then rename): a crash never leaves half an image.
public actor ArtworkCache {
    /// The files of one album's art.
    public struct Files: Equatable, Sendable {
        public var artwork: URL
        /// Nil when no thumbnail maker is plugged in or it failed.
        public var thumbnail: URL?
    }

    public nonisolated let directory: URL
    private let makeThumbnail: (@Sendable (Data) throws -> Data)?
    private var memory: LRUCache<MBID, Data>

    /// - Parameter makeThumbnail: turns the 500 px JPEG into the 200 px one (the imaging code's
    ///   resizer); nil until it is plugged in.
    public init(directory: URL, memoryCapacity: Int = 30, makeThumbnail: (@Sendable (Data) throws -> Data)? = nil) {
        self.directory = directory
        self.makeThumbnail = makeThumbnail
        memory = LRUCache(capacity: memoryCapacity)
    }

    public init(paths: CratePaths, makeThumbnail: (@Sendable (Data) throws -> Data)? = nil) {
        self.init(directory: paths.artworkDirectory, makeThumbnail: makeThumbnail)
    }

    /// What the library stores for one of this cache's files: its name, relative to `directory`,
    /// so moving the cache directory (`$XDG_CACHE_HOME`, `CRATE_CACHE_DIR`) keeps every album's
    /// art. A file elsewhere is stored absolute.
    public nonisolated func storedPath(for file: URL) -> String {
        file.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path
            ? file.lastPathComponent : file.path
    }

    /// The file a stored artwork path names, resolved against the current cache directory.
    public nonisolated func url(forStoredPath path: String?) -> URL? {
        Self.url(forStoredPath: path, in: directory)
    }

    /// The one resolver for `Album.artworkPath` / `thumbnailPath`: relative paths are under
    /// `directory` (the artwork cache); absolute ones, from libraries older than relative paths
    /// and outside any artwork cache, are used as they are.
    public static func url(forStoredPath path: String?, in directory: URL) -> URL? {
        guard let path, !path.isEmpty else { return nil }
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
    }

    /// An absolute path written before paths were relative, as it is stored now: the file name
    /// when it sits in a directory named like the cache's (`…/artwork/<file>`), else unchanged.
    /// The migration uses this because it cannot know which cache directory the path meant.
    public static func storedPath(forLegacyPath path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().lastPathComponent == legacyDirectoryName ? url.lastPathComponent : path
    }

    /// The last component of `CratePaths.artworkDirectory`, the folder old absolute paths name.
    static let legacyDirectoryName = "artwork"

    public nonisolated func artworkURL(for id: MBID) -> URL {
        directory.appendingPathComponent("\(id.rawValue)-500.jpg")
    }

    public nonisolated func thumbnailURL(for id: MBID) -> URL {
        directory.appendingPathComponent("\(id.rawValue)-200.jpg")
    }

    /// Writes the 500 px file (and the 200 px one, when a maker is plugged in) and keeps the bytes
    /// in memory. A failed thumbnail is logged and leaves `thumbnail` nil; the artwork still counts.
    @discardableResult
    public func store(_ data: Data, for id: MBID) throws -> Files {
        try CratePaths.ensureWritable(directory)
        let artwork = artworkURL(for: id)
        do {
            try data.write(to: artwork, options: .atomic)
        } catch {
            throw CrateError.writing(error, in: directory.path)
        }
        memory.insert(data, for: id)
        var thumbnail: URL?
        if let makeThumbnail {
            do {
                let small = try makeThumbnail(data)
                try small.write(to: thumbnailURL(for: id), options: .atomic)
                thumbnail = thumbnailURL(for: id)
            } catch {
                Log.error("could not make the 200 px artwork for \(id): \(error.localizedDescription)")
            }
        }
        return Files(artwork: artwork, thumbnail: thumbnail)
    }

    /// Writes artwork whose thumbnail was already made (the scan pipeline decodes the cover once
    /// for the thumbnail and the hashes).
    @discardableResult
    public func store(_ data: Data, thumbnail: Data, for id: MBID) throws -> Files {
        try CratePaths.ensureWritable(directory)
        do {
            try data.write(to: artworkURL(for: id), options: .atomic)
            try thumbnail.write(to: thumbnailURL(for: id), options: .atomic)
        } catch {
            throw CrateError.writing(error, in: directory.path)
        }
        memory.insert(data, for: id)
        return Files(artwork: artworkURL(for: id), thumbnail: thumbnailURL(for: id))
    }

    /// Writes artwork that came from the music folder (a folder image or a picture embedded in
    /// the files), for an album that may have no release id: named `local-<key>-500.jpg` and
    /// `-200.jpg`, where `key` is made here from `identity` (the album's group key on disk), so
    /// nothing a file says chooses a path. Not kept in memory (that is keyed by MBID).
    @discardableResult
    public nonisolated func storeLocal(_ data: Data, thumbnail: Data, identity: String) throws -> Files {
        try CratePaths.ensureWritable(directory)
        let key = Self.localKey(identity)
        let artwork = directory.appendingPathComponent("local-\(key)-500.jpg")
        let small = directory.appendingPathComponent("local-\(key)-200.jpg")
        do {
            try data.write(to: artwork, options: .atomic)
            try thumbnail.write(to: small, options: .atomic)
        } catch {
            throw CrateError.writing(error, in: directory.path)
        }
        return Files(artwork: artwork, thumbnail: small)
    }

    /// 16 hex digits of a 64-bit FNV-1a hash of `identity`.
    static func localKey(_ identity: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The 500 px bytes: from memory, else from disk (and then kept in memory).
    public func data(for id: MBID) -> Data? {
        if let cached = memory.value(for: id) { return cached }
        guard let data = FileManager.default.contents(atPath: artworkURL(for: id).path), !data.isEmpty else { return nil }
        memory.insert(data, for: id)
        return data
    }

    /// The files already on disk for `id`, if its artwork is.
    public func files(for id: MBID) -> Files? {
        let fm = FileManager.default
        guard fm.fileExists(atPath: artworkURL(for: id).path) else { return nil }
        let thumbnail = thumbnailURL(for: id)
        return Files(artwork: artworkURL(for: id), thumbnail: fm.fileExists(atPath: thumbnail.path) ? thumbnail : nil)
    }

    /// How many images are held in memory.
    public var memoryCount: Int { memory.count }
}
