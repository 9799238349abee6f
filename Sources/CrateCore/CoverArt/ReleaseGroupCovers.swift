import Foundation

/// Artist-page covers: each release group's 250 px front from the Cover Art Archive, kept as
/// `<cache>/release-group-covers/<id>-250.jpg` so a second visit shows them offline. A release
/// group without art is remembered for the process (no request per redraw).
public actor ReleaseGroupCovers {
    public let directory: URL
    private let client: CoverArtClient?
    private var missing: Set<MBID> = []
    private var inFlight: [MBID: Task<URL?, Never>] = [:]

    /// - Parameter client: nil offline: only covers already saved are shown.
    public init(directory: URL, client: CoverArtClient?) {
        self.directory = directory
        self.client = client
    }

    public init(paths: CratePaths, client: CoverArtClient?) {
        self.init(directory: paths.cacheDirectory.appendingPathComponent("release-group-covers", isDirectory: true), client: client)
    }

    /// The saved file, without any request.
    public nonisolated func savedFile(for id: MBID) -> URL? {
        let url = file(for: id)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The saved file, or the cover fetched and saved; nil when there is none (or no network).
    /// One request per release group at a time, however many callers ask.
    public func cover(for id: MBID) async -> URL? {
        if let saved = savedFile(for: id) { return saved }
        guard let client, !missing.contains(id) else { return nil }
        if let running = inFlight[id] { return await running.value }
        let target = file(for: id)
        let directory = self.directory
        let task = Task<URL?, Never> {
            do {
                guard let data = try await client.releaseGroupFront250(id) else { return nil }
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try data.write(to: target, options: .atomic)
                return target
            } catch {
                Log.debug("no cover for release group \(id): \(UserMessage.text(for: error))")
                return nil
            }
        }
        inFlight[id] = task
        let result = await task.value
        inFlight[id] = nil
        if result == nil { missing.insert(id) }
        return result
    }

    private nonisolated func file(for id: MBID) -> URL {
        directory.appendingPathComponent("\(id.rawValue)-250.jpg")
    }
}
