import Foundation

/// 250 px covers of albums that are not in the crate (genre feeds, an artist's catalogue),
/// kept in the artwork cache under the wall's file names (`wall-<release group>-250.jpg`), so an
/// album shown on the wall, in a genre feed and on its artist's page is downloaded once and shows
/// offline afterwards. Nothing is written to the library: the file is the cache.
public struct ThumbnailFiles: Sendable {
    public let directory: URL
    private let http: HTTPClient
    private let userAgent: String

    public init(directory: URL, http: HTTPClient, userAgent: String = "Crate/\(CrateVersion.string)") {
        self.directory = directory
        self.http = http
        self.userAgent = userAgent
    }

    /// The stored path (relative to the artwork cache) when the cover is already there.
    public func cached(_ group: MBID) -> String? {
        let name = WallArtwork.fileName(for: group)
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) ? name : nil
    }

    /// The cover's stored path, downloaded first when missing; nil when the album has none, the
    /// address is missing, or the Cover Art Archive cannot be reached (tried again next time).
    public func fetch(_ group: MBID, from url: URL?) async -> String? {
        if let name = cached(group) { return name }
        guard let url else { return nil }
        let name = WallArtwork.fileName(for: group)
        let file = directory.appendingPathComponent(name)
        do {
            let response = try await http.send(HTTPRequest(url: url, headers: ["User-Agent": userAgent], timeout: 15, maxBodyBytes: 4 << 20))
            guard response.status == 200 else { return nil }
            try JPEGSignature.validate(response.body)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString)")
            try response.body.write(to: temporary)
            _ = try? FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: temporary, to: file)
            return name
        } catch {
            Log.debug("cover for \(group) failed: \(UserMessage.text(for: error))")
            return nil
        }
    }
}

extension AppServices {
    /// Covers of albums outside the crate, from the Cover Art Archive (nil offline).
    public func thumbnailFiles() -> ThumbnailFiles? {
        guard musicBrainz != nil else { return nil }
        return ThumbnailFiles(directory: environment.paths.artworkDirectory,
                              http: ResilientHTTPClient(base: environment.transport, policy: .coverArtArchive, limiter: environment.limiter),
                              userAgent: "Crate/\(CrateVersion.string) ( \(settings.musicBrainzContact) )")
    }
}
