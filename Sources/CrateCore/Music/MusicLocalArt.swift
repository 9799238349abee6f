import Foundation

/// Artwork an album on disk carries itself: an image in its folder (`cover`, `folder`, `front`,
/// any case, `.jpg`/`.jpeg`/`.png`) or a picture embedded in its files (FLAC PICTURE, Ogg/Opus
/// picture comment, ID3v2 APIC, MP4 `covr`, read with TagLib). Every candidate goes through the
/// same checks and decoder as downloaded artwork (`ImagePreparer.prepareArtwork`): a damaged or
/// unsupported image is refused and the next candidate tried; none usable means no artwork.
public enum MusicLocalArt {
    public static let folderImageNames: [String] = ["cover", "folder", "front"]
    public static let folderImageExtensions: [String] = ["jpg", "jpeg", "png"]
    /// Larger files are not read (a folder "cover" that is really a scan of the booklet at 600 dpi).
    public static let maxImageBytes = 32 * 1024 * 1024

    /// The folder images of `directory`, in preference order (name order above, then extension).
    public static func folderImages(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var ranked: [(rank: Int, name: String)] = []
        for name in names {
            let lower = name.lowercased()
            let ext = (lower as NSString).pathExtension
            let base = (lower as NSString).deletingPathExtension
            guard let nameRank = folderImageNames.firstIndex(of: base), let extRank = folderImageExtensions.firstIndex(of: ext) else { continue }
            ranked.append((nameRank * folderImageExtensions.count + extRank, name))
        }
        return ranked.sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }.map { directory + "/" + $0.name }
    }

    /// The first candidate that decodes, prepared as artwork (500 px, 200 px, cover hash); nil when
    /// the album has no usable image.
    public static func prepared(for album: DiskAlbum, preparer: ImagePreparer = ImagePreparer()) -> PreparedArtwork? {
        for path in folderImages(in: album.directory) {
            guard let data = readImage(path) else { continue }
            if let prepared = prepare(data, preparer: preparer, from: path) { return prepared }
        }
        var seen = Set<Data>()
        for file in album.files where file.status == .ok {
            guard let data = TagReader.embeddedPicture(path: file.path), data.count <= maxImageBytes, seen.insert(data).inserted else { continue }
            if let prepared = prepare(data, preparer: preparer, from: file.path) { return prepared }
        }
        return nil
    }

    private static func readImage(_ path: String) -> Data? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size <= maxImageBytes else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    private static func prepare(_ data: Data, preparer: ImagePreparer, from path: String) -> PreparedArtwork? {
        do {
            return try preparer.prepareArtwork(data)
        } catch {
            Log.debug("artwork in \(path) not used: \(UserMessage.text(for: error))")
            return nil
        }
    }
}
