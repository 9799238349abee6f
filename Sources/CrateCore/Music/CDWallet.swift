import Foundation

/// One disc in the "CDs" wallet: a whole album from the music folder (every disc of a
/// multi-disc album together), whatever part of it the playlist named.
public struct WalletDisc: Equatable, Sendable, Codable {
    public var artist: String
    public var title: String
    /// Lowercased, trimmed, leading "the"/"a"/"an" dropped: for sorting only.
    public var artistSortKey: String
    public var albumSortKey: String
    /// The album's id in the music index (its group key); the last tie-break.
    public var id: String
    /// The crate album it matches, when one does.
    public var crateAlbumID: Int64?
    public var directory: String
    public var discCount: Int
    public var trackCount: Int
}

/// A "CDs" playlist file found in the music folders.
public struct WalletPlaylist: Equatable, Sendable, Codable {
    public var path: String
    public var modifiedNs: Int64
    public var itemCount: Int
}

/// One playlist entry and what it resolved to.
public struct WalletEntry: Equatable, Sendable, Codable {
    public var line: Int
    public var text: String
    /// The file it names (resolved against the playlist's folder), when it names one.
    public var path: String?
    /// The wallet disc (its id) the entry brought in, or nil when unresolved.
    public var discID: String?
    /// Why it did not resolve: "file not found", "not in the music index yet", "unreadable: …", "not a local file".
    public var problem: String?
}

/// The wallet and how it was made, for `crate cds --diagnostics` and the Diagnostics view.
public struct CDWallet: Equatable, Sendable, Codable {
    public var discs: [WalletDisc] = []
    public var playlist: WalletPlaylist?
    /// Every "CDs" playlist found, in the order they were considered.
    public var candidates: [WalletPlaylist] = []
    /// Why this playlist was chosen ("the only one", "most recently modified", …).
    public var choice: String
    public var entries: [WalletEntry] = []

    public var resolvedCount: Int { entries.filter { $0.discID != nil }.count }
    public var unresolvedCount: Int { entries.count - resolvedCount }
}

/// Builds the "CDs" wallet: finds playlists named "CDs" (`CDs.m3u`, `.m3u8`, `.xspf`, any case)
/// in the music folders, picks one (most recently modified, then most items, then path order,
/// and says why), reads its entries (relative, absolute and `file://`), and turns every entry into
/// its whole album from the music index. Albums sort by artist sort key, then album, then id.
public enum CDWalletBuilder {
    public static func build(folders: [String], database: AppDatabase) throws -> CDWallet {
        let found = MusicFolderWalker.walk(folders).files.filter { $0.kind == .playlist && isCDsName($0.path) }
        var candidates: [(WalletPlaylist, [String])] = []
        for file in found {
            let entries = (try? readEntries(path: file.path)) ?? []
            candidates.append((WalletPlaylist(path: file.path, modifiedNs: file.mtimeNs, itemCount: entries.count), entries))
        }
        let (chosen, reason) = choose(candidates.map(\.0))
        var wallet = CDWallet(candidates: candidates.map(\.0), choice: reason)
        guard let chosen, let lines = candidates.first(where: { $0.0 == chosen })?.1 else { return wallet }
        wallet.playlist = chosen

        let readable = try database.readableMusicFiles()
        let byPath = Dictionary(readable.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let unreadable = Dictionary(try database.unreadableMusicFiles().map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let matcher = AlbumMatcher(files: readable)
        let disks = Dictionary(matcher.diskAlbums.map { ($0.groupKey, $0) }, uniquingKeysWith: { first, _ in first })
        var crateIDs: [String: Int64] = [:]
        for album in try database.allAlbums() {
            if case .matched(let disk, _) = matcher.match(album), let id = album.id, crateIDs[disk.groupKey] == nil {
                crateIDs[disk.groupKey] = id
            }
        }
        let base = (chosen.path as NSString).deletingLastPathComponent
        let entriesAreURIs = chosen.path.lowercased().hasSuffix(".xspf")
        var seen = Set<String>()
        for (offset, text) in lines.enumerated() {
            var entry = WalletEntry(line: offset + 1, text: text)
            guard let path = resolve(text, relativeTo: base, isURI: entriesAreURIs) else {
                entry.problem = "not a local file"
                wallet.entries.append(entry)
                continue
            }
            entry.path = path
            if let file = byPath[path], let disk = disks[file.groupKey] {
                entry.discID = disk.groupKey
                if seen.insert(disk.groupKey).inserted {
                    wallet.discs.append(disc(disk, crateAlbumID: crateIDs[disk.groupKey]))
                }
            } else if let bad = unreadable[path] {
                entry.problem = "unreadable: \(bad.problem ?? TagReadProblem.unreadable.message)"
            } else if PathExists.exists(path) {
                entry.problem = "not in the music index yet (run `crate music scan`)"
            } else {
                entry.problem = "file not found"
            }
            wallet.entries.append(entry)
        }
        wallet.discs.sort { ($0.artistSortKey, $0.albumSortKey, $0.id) < ($1.artistSortKey, $1.albumSortKey, $1.id) }
        return wallet
    }

    /// The collision rule: most recently modified, then most items, then path order.
    static func choose(_ playlists: [WalletPlaylist]) -> (WalletPlaylist?, String) {
        guard let first = playlists.first else { return (nil, L10n.tr("No playlist named \"CDs\" (CDs.m3u, CDs.m3u8 or CDs.xspf) in the music folders.")) }
        if playlists.count == 1 { return (first, L10n.tr("The only \"CDs\" playlist.")) }
        let sorted = playlists.sorted { ($1.modifiedNs, $1.itemCount, $0.path) < ($0.modifiedNs, $0.itemCount, $1.path) }
        let best = sorted[0], runnerUp = sorted[1]
        if best.modifiedNs != runnerUp.modifiedNs {
            return (best, "\(playlists.count) \"CDs\" playlists; chose the most recently modified.")
        }
        if best.itemCount != runnerUp.itemCount {
            return (best, "\(playlists.count) \"CDs\" playlists modified at the same time; chose the one with the most entries (\(best.itemCount)).")
        }
        return (best, "\(playlists.count) \"CDs\" playlists alike in time and size; chose the first by path.")
    }

    static func isCDsName(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        return stem.lowercased() == "cds"
    }

    /// The entries of an M3U/M3U8 (comments and blank lines skipped) or XSPF (`<location>`) file.
    static func readEntries(path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: String(decoding: PathBytes.bytes(of: path), as: UTF8.self)))
        let text = String(decoding: data, as: UTF8.self)
        if path.lowercased().hasSuffix(".xspf") {
            var entries: [String] = []
            var rest = text[...]
            while let open = rest.range(of: "<location>"), let close = rest.range(of: "</location>", range: open.upperBound..<rest.endIndex) {
                entries.append(unescapeXML(String(rest[open.upperBound..<close.lowerBound])).trimmingCharacters(in: .whitespacesAndNewlines))
                rest = rest[close.upperBound...]
            }
            return entries
        }
        return m3uEntries(Array(data))
    }

    /// An M3U's entries, line by line on the raw bytes: a line that is not UTF-8 (a Latin-1 file
    /// name) keeps its bytes (as a `PathBytes` string), so it matches the indexed file of that
    /// name instead of becoming replacement characters that match nothing.
    static func m3uEntries(_ bytes: [UInt8]) -> [String] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        return body.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D })
            .map { line -> ArraySlice<UInt8> in
                let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
                guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) }) else { return [] }
                return line[first...last]
            }
            .filter { !$0.isEmpty && $0.first != UInt8(ascii: "#") }
            .map { PathBytes.string(from: Array($0)) }
    }

    /// An entry as a path: absolute as is, `file://` URIs decoded, relative against the playlist's
    /// folder (XSPF locations are URI references, so their %-escapes are decoded too).
    static func resolve(_ entry: String, relativeTo base: String, isURI: Bool = false) -> String? {
        if entry.lowercased().hasPrefix("file://") {
            var rest = entry.dropFirst(7)
            if rest.hasPrefix("localhost/") { rest = rest.dropFirst(9) }
            guard rest.hasPrefix("/") else { return nil }
            return PathBytes.string(from: percentDecoded(String(rest)))
        }
        if entry.contains("://") { return nil }
        let text = isURI ? PathBytes.string(from: percentDecoded(entry)) : entry
        let path = text.hasPrefix("/") ? text : base + "/" + text
        return (path as NSString).standardizingPath
    }

    static func percentDecoded(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    static func unescapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func disc(_ disk: DiskAlbum, crateAlbumID: Int64?) -> WalletDisc {
        let folded = disk.artist.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        var artistKey = folded
        for article in ["the ", "a ", "an "] where folded.hasPrefix(article) {
            let rest = folded.dropFirst(article.count).trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty { artistKey = rest }
            break
        }
        return WalletDisc(artist: disk.artist, title: disk.title, artistSortKey: artistKey,
                          albumSortKey: disk.title.lowercased().trimmingCharacters(in: .whitespacesAndNewlines), id: disk.groupKey,
                          crateAlbumID: crateAlbumID, directory: disk.directory, discCount: Set(disk.files.map(\.disc)).count,
                          trackCount: disk.files.count)
    }
}

/// Whether a `PathBytes` path exists on disk.
enum PathExists {
    static func exists(_ path: String) -> Bool {
        access(PathBytes.bytes(of: path).map { CChar(bitPattern: $0) } + [0], F_OK) == 0
    }
}
