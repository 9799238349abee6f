import Foundation

/// Caches the wall's 250 px art in the artwork cache (`wall-<release group>-250.jpg`), so a stored
/// wall shows its covers at once, offline too. A release group without art is marked
/// `unavailable` (the tile shows a placeholder); a failure is retried on the next refresh.
public struct WallArtwork: Sendable {
    public let database: AppDatabase
    public let directory: URL
    private let http: HTTPClient
    private let userAgent: String
    /// Downloads at once (the Cover Art Archive asks for no rate; this keeps a wall polite).
    public var concurrency = 4

    public init(database: AppDatabase, directory: URL, http: HTTPClient, userAgent: String = "Crate/\(CrateVersion.string)") {
        self.database = database
        self.directory = directory
        self.http = http
        self.userAgent = userAgent
    }

    public static func fileName(for group: MBID) -> String { "wall-\(group.rawValue)-250.jpg" }

    /// Fetches the art of every tile that has none yet; returns how many arrived.
    @discardableResult
    public func fetchMissing() async -> Int {
        guard !database.isReadOnly, let wall = try? database.read(StoredWallRequest()) else { return 0 }
        var seen = Set<MBID>()
        let wanted = wall.tiles.filter { $0.artworkStatus == .pending || $0.artworkStatus == .failed }
            .map(\.item).filter { seen.insert($0.releaseGroupID).inserted }
        guard !wanted.isEmpty else { return 0 }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arrived = 0
        var index = 0
        await withTaskGroup(of: Bool.self) { group in
            func next() {
                guard index < wanted.count else { return }
                let item = wanted[index]
                index += 1
                group.addTask { await fetch(item) }
            }
            for _ in 0..<concurrency { next() }
            for await ok in group {
                if ok { arrived += 1 }
                next()
            }
        }
        return arrived
    }

    private func fetch(_ item: WallItem) async -> Bool {
        let file = directory.appendingPathComponent(Self.fileName(for: item.releaseGroupID))
        if FileManager.default.fileExists(atPath: file.path) {
            try? database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .available, path: file.lastPathComponent)
            return true
        }
        // An album already in the crate has its cover in the cache: no download, offline too.
        if let thumbnail = try? database.read(CrateThumbnailRequest(releaseGroupID: item.releaseGroupID)),
           let url = ArtworkCache.url(forStoredPath: thumbnail, in: directory), FileManager.default.fileExists(atPath: url.path) {
            try? database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .available, path: thumbnail)
            return true
        }
        guard let url = item.artURL else {
            try? database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .unavailable, path: nil)
            return false
        }
        do {
            let response = try await http.send(HTTPRequest(url: url, headers: ["User-Agent": userAgent], timeout: 15, maxBodyBytes: 4 << 20))
            if response.status == 404 {
                try? database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .unavailable, path: nil)
                return false
            }
            guard response.status == 200 else { throw CoverArtError.server(status: response.status) }
            try JPEGSignature.validate(response.body)
            let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            try response.body.write(to: temporary)
            _ = try? FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: temporary, to: file)
            try database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .available, path: file.lastPathComponent)
            return true
        } catch {
            Log.debug("wall art for \(item.releaseGroupID) failed: \(UserMessage.text(for: error))")
            try? database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .failed, path: nil)
            return false
        }
    }
}
