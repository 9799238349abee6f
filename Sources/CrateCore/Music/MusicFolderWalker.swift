import Foundation

/// One file found under a music folder.
public struct FoundFile: Equatable, Sendable {
    public enum Kind: String, Sendable { case audio, playlist }
    /// A `PathBytes` string: non-UTF-8 names keep their bytes.
    public var path: String
    public var kind: Kind
    public var mtimeNs: Int64
    public var size: Int64
}

/// What a scan last saw in one directory (`music_dir`): its mtime, its audio files, playlists and
/// sub-directories (`entries`: a kind byte `a`, `p` or `d`, the name's bytes, a NUL — names are in
/// the order they were walked), and `digest`, a hash of those names with each file's mtime and size.
public struct MusicDirectoryRecord: Equatable, Sendable {
    /// A `PathBytes` string.
    public var path: String
    /// The directory's mtime, or `MusicDirectoryRecord.untrusted` when it (or a file in it) changed
    /// too close to the scan for the mtime to be trusted next time.
    public var mtimeNs: Int64
    public var entries: [UInt8]
    public var digest: Int64

    public static let untrusted: Int64 = -1

    public init(path: String, mtimeNs: Int64, entries: [UInt8], digest: Int64) {
        self.path = path
        self.mtimeNs = mtimeNs
        self.entries = entries
        self.digest = digest
    }
}

/// What walking the music folders found, and what it had to step around.
public struct FolderWalk: Sendable {
    /// Files of the directories that were read (all of them when the walk had no cache).
    public var files: [FoundFile] = []
    /// Directories reached a second time through a symbolic link (a loop, or two links to one folder).
    public var loopsSkipped: [String] = []
    /// Directories that could not be opened, with the reason.
    public var unreadableDirectories: [(path: String, reason: String)] = []
    /// Configured folders that do not exist.
    public var missingRoots: [String] = []
    /// Directories not entered because they lie more than `MusicFolderWalker.maxDepth` levels
    /// below their music folder (reported, and the rest of the walk goes on).
    public var tooDeep: [String] = []
    /// The deepest level walked below a music folder (0: only the folder itself).
    public var deepestLevel = 0
    /// Directories whose entries were read (their files are all in `files`), with what to remember.
    public var readDirectories: [MusicDirectoryRecord] = []
    /// Directories found unchanged from the cache: same mtime, and every file in it has the same
    /// mtime and size as last time. Their files are not in `files`; they are counted here.
    public var unchangedDirectories: Set<String> = []
    public var unchangedAudioFiles = 0
    public var unchangedPlaylists = 0
}

/// Walks music folders with the raw POSIX calls, so names that are not UTF-8 are kept (as
/// `PathBytes` strings) and a symbolic link back up the tree is entered once, never forever.
/// The walk keeps its own stack rather than recursing: a folder nested 1 500 levels deep once
/// overflowed the thread's stack. Below `maxDepth` levels it stops and says where.
///
/// With a cache of what the last scan saw (`MusicDirectoryRecord`s), a directory whose mtime is
/// unchanged is not listed again: adding, removing or renaming an entry changes a directory's
/// mtime. A file rewritten in place (new tags) changes only its own mtime, so the files the cache
/// names are still `stat`ed, and their mtimes and sizes compared (as one digest) with last time;
/// any difference and the directory is read in full.
public enum MusicFolderWalker {
    public static let audioExtensions: Set<String> = ["flac", "ogg", "oga", "opus", "mp3", "m4a", "mp4", "aac", "wav"]
    public static let playlistExtensions: Set<String> = ["m3u", "m3u8", "xspf"]
    /// A directory or file changed less than this before the scan started may change again within
    /// the same timestamp tick without its mtime moving: its directory is read again next time.
    public static let racyWindowNs: Int64 = 2_000_000_000
    /// How many levels below a music folder are walked. Real music trees are a dozen deep; deeper
    /// ones are generated or a mistake, and each level costs a listing.
    public static let maxDepth = 256

    public static func walk(_ roots: [String], cache: [String: MusicDirectoryRecord] = [:],
                            startedNs: Int64 = MusicFolderWalker.nowNs(), maxDepth: Int = MusicFolderWalker.maxDepth) -> FolderWalk {
        var walker = Walker(cache: cache, trustBefore: startedNs - racyWindowNs, maxDepth: maxDepth)
        for root in roots {
            var info = stat()
            guard stat(cString(PathBytes.bytes(of: root)), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                walker.walk.missingRoots.append(root)
                continue
            }
            walker.walkTree(root: PathBytes.bytes(of: root), info: info)
        }
        return walker.walk
    }

    public static func nowNs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Walker {
        let cache: [String: MusicDirectoryRecord]
        let trustBefore: Int64
        let maxDepth: Int
        var walk = FolderWalk()
        var visited = Set<DirectoryIdentity>()

        /// Depth first, in name order (the order the cache's entries were recorded in), with an
        /// explicit stack so the depth of the tree never reaches the thread's stack.
        mutating func walkTree(root: [UInt8], info: stat) {
            var stack: [(directory: [UInt8], info: stat, depth: Int)] = [(root, info, 0)]
            while let next = stack.popLast() {
                guard next.depth <= maxDepth else {
                    walk.tooDeep.append(PathBytes.string(from: next.directory))
                    continue
                }
                walk.deepestLevel = max(walk.deepestLevel, next.depth)
                let children = visit(directory: next.directory, info: next.info)
                for (child, childInfo) in children.reversed() {
                    stack.append((child, childInfo, next.depth + 1))
                }
            }
        }

        /// Reads (or confirms unchanged) one directory; returns its sub-directories to walk.
        private mutating func visit(directory: [UInt8], info: stat) -> [([UInt8], stat)] {
            let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard visited.insert(identity).inserted else {
                walk.loopsSkipped.append(PathBytes.string(from: directory))
                return []
            }
            let path = PathBytes.string(from: directory)
            var prefix = directory
            if prefix.last != 47 { prefix.append(47) }
            let mtime = MusicFolderWalker.mtime(info)
            if let record = cache[path], record.mtimeNs != MusicDirectoryRecord.untrusted, record.mtimeNs == mtime,
               let subdirectories = unchanged(directory: directory, record: record) {
                walk.unchangedDirectories.insert(path)
                return subdirectories.map { (prefix + $0.0, $0.1) }
            }
            return read(directory: directory, path: path, prefix: prefix, mtime: mtime)
        }

        /// The sub-directories to walk if every file the record names is still there with the same
        /// mtime and size; nil if anything differs (the directory is then read in full).
        private mutating func unchanged(directory: [UInt8], record: MusicDirectoryRecord) -> [([UInt8], stat)]? {
            let descriptor = open(cString(directory), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var subdirectories: [([UInt8], stat)] = []
            var audio = 0, playlists = 0
            var digest = Digest()
            let same = record.entries.withUnsafeBufferPointer { entries -> Bool in
                guard let base = entries.baseAddress else { return true }
                var start = 0
                while start < entries.count {
                    guard let end = entries[start...].firstIndex(of: 0) else { return false }
                    let kind = entries[start]
                    let name = UnsafeBufferPointer(rebasing: entries[(start + 1)..<end])
                    var entryInfo = stat()
                    let statted = UnsafeRawPointer(base + start + 1).withMemoryRebound(to: CChar.self, capacity: end - start) {
                        fstatat(descriptor, $0, &entryInfo, 0) == 0
                    }
                    guard statted else { return false }
                    let type = entryInfo.st_mode & S_IFMT
                    switch kind {
                    case UInt8(ascii: "d"):
                        guard type == S_IFDIR else { return false }
                        digest.add(kind: kind, name: name, mtime: 0, size: 0)
                        subdirectories.append((Array(name), entryInfo))
                    case UInt8(ascii: "a"), UInt8(ascii: "p"):
                        guard type == S_IFREG else { return false }
                        let fileMtime = MusicFolderWalker.mtime(entryInfo)
                        guard fileMtime < trustBefore else { return false }
                        digest.add(kind: kind, name: name, mtime: fileMtime, size: Int64(entryInfo.st_size))
                        if kind == UInt8(ascii: "a") { audio += 1 } else { playlists += 1 }
                    default:
                        return false
                    }
                    start = end + 1
                }
                return true
            }
            guard same, digest.value == record.digest else { return nil }
            walk.unchangedAudioFiles += audio
            walk.unchangedPlaylists += playlists
            return subdirectories
        }

        /// Lists the directory, `stat`s its audio files, playlists and sub-directories, and records it.
        /// Returns the sub-directories' full paths.
        private mutating func read(directory: [UInt8], path: String, prefix: [UInt8], mtime: Int64) -> [([UInt8], stat)] {
            guard let handle = opendir(cString(directory)) else {
                walk.unreadableDirectories.append((path, FileProblem.from(errno: errno, path: path).message))
                return []
            }
            defer { closedir(handle) }
            let descriptor = dirfd(handle)
            var names: [(name: [UInt8], type: UInt8)] = []
            while let entry = readdir(handle) {
                let type = entry.pointee.d_type
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    let length = bytes.firstIndex(of: 0) ?? bytes.count
                    return Array(bytes[0..<length])
                }
                if name.first == 46 { continue } // ".", "..", hidden files and folders
                names.append((name, type))
            }
            names.sort { $0.name.lexicographicallyPrecedes($1.name) }
            var subdirectories: [([UInt8], stat)] = []
            var entries: [UInt8] = []
            var digest = Digest()
            var trusted = mtime < trustBefore
            for (name, type) in names {
                // A regular file that is neither audio nor a playlist needs no stat (most cover images).
                let fileKind = MusicFolderWalker.kind(of: name)
                if type == UInt8(DT_REG), fileKind == nil { continue }
                var entryInfo = stat()
                // fstatat follows symbolic links: a link to a folder is walked, a dangling link is skipped.
                let statted = name.withUnsafeBufferPointer { buffer -> Bool in
                    var cName = buffer.map { CChar(bitPattern: $0) }
                    cName.append(0)
                    return fstatat(descriptor, cName, &entryInfo, 0) == 0
                }
                guard statted else { continue }
                switch entryInfo.st_mode & S_IFMT {
                case S_IFDIR:
                    subdirectories.append((name, entryInfo))
                    let kind = UInt8(ascii: "d")
                    entries.append(kind)
                    entries.append(contentsOf: name)
                    entries.append(0)
                    name.withUnsafeBufferPointer { digest.add(kind: kind, name: $0, mtime: 0, size: 0) }
                case S_IFREG:
                    guard let fileKind else { continue }
                    let fileMtime = MusicFolderWalker.mtime(entryInfo)
                    if fileMtime >= trustBefore { trusted = false }
                    walk.files.append(FoundFile(path: PathBytes.string(from: prefix + name), kind: fileKind, mtimeNs: fileMtime,
                                                size: Int64(entryInfo.st_size)))
                    let kind = fileKind == .audio ? UInt8(ascii: "a") : UInt8(ascii: "p")
                    entries.append(kind)
                    entries.append(contentsOf: name)
                    entries.append(0)
                    name.withUnsafeBufferPointer { digest.add(kind: kind, name: $0, mtime: fileMtime, size: Int64(entryInfo.st_size)) }
                default:
                    continue
                }
            }
            walk.readDirectories.append(MusicDirectoryRecord(path: path, mtimeNs: trusted ? mtime : MusicDirectoryRecord.untrusted,
                                                             entries: entries, digest: digest.value))
            return subdirectories.map { (prefix + $0.0, $0.1) }
        }
    }

    /// FNV-1a over each entry's kind, name, mtime and size.
    struct Digest {
        private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var value: Int64 { Int64(bitPattern: hash) }

        private mutating func byte(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }

        private mutating func word(_ value: Int64) {
            var bits = UInt64(bitPattern: value)
            for _ in 0..<8 {
                byte(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }

        mutating func add(kind: UInt8, name: UnsafeBufferPointer<UInt8>, mtime: Int64, size: Int64) {
            byte(kind)
            for b in name { byte(b) }
            byte(0)
            word(mtime)
            word(size)
        }
    }

    static func mtime(_ info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    static func kind(of name: [UInt8]) -> FoundFile.Kind? {
        guard let dot = name.lastIndex(of: 46) else { return nil }
        let ext = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        if audioExtensions.contains(ext) { return .audio }
        if playlistExtensions.contains(ext) { return .playlist }
        return nil
    }

    /// The bytes with a terminating NUL, as the C calls take them.
    fileprivate static func cString(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }
}

private func cString(_ bytes: [UInt8]) -> [CChar] { MusicFolderWalker.cString(bytes) }
