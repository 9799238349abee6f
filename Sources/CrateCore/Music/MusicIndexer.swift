import Foundation

/// What one scan of the music folders did and found.
public struct MusicScanReport: Equatable, Sendable, Codable {
    public var folders: [String] = []
    /// Audio files found on disk.
    public var files = 0
    /// Readable audio files in the index after the scan.
    public var tracks = 0
    /// Albums on disk (files grouped by release id, or by folder + name).
    public var albums = 0
    /// Crate albums with files / without (ambiguous ones are listed, not counted as matched).
    public var matched = 0
    public var unmatched = 0
    public var ambiguous = 0
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    public var removed = 0
    public var unreadable = 0
    public var playlists = 0
    public var loopsSkipped: [String] = []
    public var missingFolders: [String] = []
    public var unreadableFolders: [String] = []
    /// Folders more than `MusicFolderWalker.maxDepth` levels deep, not walked.
    public var tooDeepFolders: [String] = []
    /// The deepest level walked below a music folder.
    public var deepestLevel = 0

    public init() {}
}

/// Keeps the `music_file` index in step with the music folders: files whose mtime and size are
/// unchanged are not opened again, new or changed ones are read with TagLib, files gone from disk
/// are dropped. Files of a folder that is missing (an unplugged disk) are kept, not dropped.
public enum MusicIndexer {
    /// Scans `folders` into `database`. Tag reading runs on all cores; the write is one transaction.
    /// Directories unchanged since the last scan (`MusicFolderWalker`'s cache) are not listed
    /// again, and when no directory changed the index is not loaded at all.
    public static func scan(folders: [String], database: AppDatabase) throws -> MusicScanReport {
        var report = MusicScanReport()
        report.folders = folders
        let cache = try database.musicDirectories()
        let walk = MusicFolderWalker.walk(folders, cache: cache)
        report.loopsSkipped = walk.loopsSkipped
        report.missingFolders = walk.missingRoots
        report.unreadableFolders = walk.unreadableDirectories.map(\.path)
        report.tooDeepFolders = walk.tooDeep
        report.deepestLevel = walk.deepestLevel
        let audio = walk.files.filter { $0.kind == .audio }
        report.files = audio.count + walk.unchangedAudioFiles
        report.playlists = walk.files.count - audio.count + walk.unchangedPlaylists
        report.unchanged = walk.unchangedAudioFiles

        let walkedRoots = folders.filter { !walk.missingRoots.contains($0) }.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        func underWalkedRoot(_ path: String) -> Bool {
            walkedRoots.contains { path.hasPrefix($0) || path + "/" == $0 }
        }
        let visited = walk.unchangedDirectories.union(walk.readDirectories.map(\.path))
        // Directories the last scan saw that are gone (or now unreadable, or only reached as a loop).
        let goneDirectories = cache.keys.filter { underWalkedRoot($0) && !visited.contains($0) }.sorted()

        if !walk.readDirectories.isEmpty || !goneDirectories.isEmpty {
            let stamps = try database.musicFileStamps()
            var toRead: [FoundFile] = []
            for file in audio {
                if let stamp = stamps[file.path], stamp.mtimeNs == file.mtimeNs, stamp.size == file.size {
                    report.unchanged += 1
                } else {
                    toRead.append(file)
                    if stamps[file.path] == nil { report.added += 1 } else { report.updated += 1 }
                }
            }
            let upserts = readAll(toRead)
            // Drop files no longer on disk, but only under folders that were actually walked; the
            // files of an unchanged directory were all found there (its digest says so).
            let present = Set(audio.map(\.path))
            let removed = stamps.keys.filter { path in
                !present.contains(path) && underWalkedRoot(path) && !walk.unchangedDirectories.contains(directory(of: path))
            }
            report.removed = removed.count
            try database.applyMusicIndexChanges(upserts: upserts, removedPaths: removed.sorted(),
                                                directories: walk.readDirectories, removedDirectories: goneDirectories)
        }
        let counts = try database.musicIndexCounts()
        report.tracks = counts.tracks
        report.unreadable = counts.unreadable
        report.albums = counts.albums
        (report.matched, report.ambiguous, report.unmatched) = try database.musicMatchCounts()
        return report
    }

    /// The directory part of a file's path ("/a/b" for "/a/b/c.flac").
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// Reads tags of `files` on all cores; each iteration writes only its own slot.
    static func readAll(_ files: [FoundFile]) -> [MusicFile] {
        guard !files.isEmpty else { return [] }
        let results = UnsafeMutableBufferPointer<MusicFile?>.allocate(capacity: files.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let chunks = min(files.count, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
        let slots = SlotWriter(results)
        Parallel.perform(iterations: chunks) { chunk in
            var index = chunk
            while index < files.count {
                let file = files[index]
                let tags: Result<AudioTags, TagReadProblem> = file.size == 0 ? .failure(.empty) : TagReader.read(path: file.path)
                slots.set(index, MusicFile.make(found: file, tags: tags))
                index += chunks
            }
        }
        return results.compactMap { $0 }
    }
}

/// Each `Parallel` iteration writes only its own indices of the buffer (the rule `Parallel` states).
private struct SlotWriter: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<MusicFile?>
    init(_ buffer: UnsafeMutableBufferPointer<MusicFile?>) { self.buffer = buffer }
    func set(_ index: Int, _ value: MusicFile) { buffer[index] = value }
}
