import Foundation

/// The crate's sort order as the user last chose it, kept across restarts in a small JSON file
/// of the state directory (`$XDG_STATE_HOME/crate/crate-view.json`). A missing or unreadable
/// file is the default order: this is a convenience, never a reason not to start.
public struct SortChoiceFile: Sendable {
    public struct Choice: Codable, Equatable, Sendable {
        public var sort: AlbumSort
        public var reversed: Bool

        public init(sort: AlbumSort = .recentlyScanned, reversed: Bool = false) {
            self.sort = sort
            self.reversed = reversed
        }
    }

    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public init(paths: CratePaths) {
        url = paths.stateDirectory.appendingPathComponent("crate-view.json")
    }

    public func read() -> Choice {
        guard let data = try? Data(contentsOf: url), let choice = try? JSONDecoder().decode(Choice.self, from: data) else { return Choice() }
        return choice
    }

    /// Writes atomically (a reader in another process never sees half a file).
    public func write(_ choice: Choice) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(choice).write(to: url, options: .atomic)
        } catch {
            Log.error("could not keep the sort order in \(url.path): \(UserMessage.text(for: error))")
        }
    }
}

extension AlbumSort: Codable {}
