import Foundation

/// Photos that arrived as pixels or in a format the core does not read (PNG, WebP… converted by
/// the window), written as JPEGs to a private folder until their scan is done. The user's photo
/// is never kept: once nothing in the scan queue points at them, they are deleted.
public struct TemporaryPhotos: Sendable {
    public let directory: URL

    /// `directory` defaults to a folder of the user's own in the system's temporary directory.
    public init(directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("crate-\(getuid())", isDirectory: true)) {
        self.directory = directory
    }

    /// Writes `jpeg` to a new file only the user can read; returns where.
    public func write(_ jpeg: Data) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let url = directory.appendingPathComponent("photo-\(UUID().uuidString).jpg")
            try jpeg.write(to: url, options: .atomic)
            return url
        } catch {
            throw CrateError.directoryNotWritable(directory.path)
        }
    }

    /// Deletes every temporary photo except `kept` (the files still waiting in the scan queue);
    /// returns how many were deleted.
    @discardableResult
    public func removeAll(except kept: Set<String> = []) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix("photo-") || name.hasPrefix("pasted-") {
            let path = directory.appendingPathComponent(name).path
            guard !kept.contains(path), (try? FileManager.default.removeItem(atPath: path)) != nil else { continue }
            removed += 1
        }
        return removed
    }
}
