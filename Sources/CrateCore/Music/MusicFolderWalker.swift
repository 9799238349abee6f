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

/// What walking the music folders found, and what it had to step around.
public struct FolderWalk: Sendable {
    public var files: [FoundFile] = []
    /// Directories reached a second time through a symbolic link (a loop, or two links to one folder).
    public var loopsSkipped: [String] = []
    /// Directories that could not be opened, with the reason.
    public var unreadableDirectories: [(path: String, reason: String)] = []
    /// Configured folders that do not exist.
    public var missingRoots: [String] = []
}

/// Walks music folders with the raw POSIX calls, so names that are not UTF-8 are kept (as
/// `PathBytes` strings) and a symbolic link back up the tree is entered once, never forever.
public enum MusicFolderWalker {
    public static let audioExtensions: Set<String> = ["flac", "ogg", "oga", "opus", "mp3", "m4a", "mp4", "aac", "wav"]
    public static let playlistExtensions: Set<String> = ["m3u", "m3u8", "xspf"]

    public static func walk(_ roots: [String]) -> FolderWalk {
        var walk = FolderWalk()
        var visited = Set<DirectoryIdentity>()
        for root in roots {
            var info = stat()
            guard stat(cString(PathBytes.bytes(of: root)), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                walk.missingRoots.append(root)
                continue
            }
            visit(directory: PathBytes.bytes(of: root), info: info, visited: &visited, walk: &walk)
        }
        return walk
    }

    struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static func visit(directory: [UInt8], info: stat, visited: inout Set<DirectoryIdentity>, walk: inout FolderWalk) {
        let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        guard visited.insert(identity).inserted else {
            walk.loopsSkipped.append(PathBytes.string(from: directory))
            return
        }
        guard let handle = opendir(cString(directory)) else {
            walk.unreadableDirectories.append((PathBytes.string(from: directory), FileProblem.from(errno: errno, path: PathBytes.string(from: directory)).message))
            return
        }
        defer { closedir(handle) }
        let descriptor = dirfd(handle)
        var entries: [(name: [UInt8], type: UInt8)] = []
        while let entry = readdir(handle) {
            let type = entry.pointee.d_type
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                let bytes = raw.bindMemory(to: UInt8.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return Array(bytes[0..<length])
            }
            if name.first == 46 { continue } // ".", "..", hidden files and folders
            entries.append((name, type))
        }
        entries.sort { $0.name.lexicographicallyPrecedes($1.name) }
        var subdirectories: [([UInt8], stat)] = []
        var prefix = directory
        if prefix.last != 47 { prefix.append(47) }
        for (name, type) in entries {
            // A regular file that is neither audio nor a playlist needs no stat (most cover images).
            let fileKind = kind(of: name)
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
                subdirectories.append((prefix + name, entryInfo))
            case S_IFREG:
                guard let fileKind else { continue }
                let mtime = Int64(entryInfo.st_mtim.tv_sec) * 1_000_000_000 + Int64(entryInfo.st_mtim.tv_nsec)
                walk.files.append(FoundFile(path: PathBytes.string(from: prefix + name), kind: fileKind, mtimeNs: mtime, size: Int64(entryInfo.st_size)))
            default:
                continue
            }
        }
        for (path, entryInfo) in subdirectories {
            visit(directory: path, info: entryInfo, visited: &visited, walk: &walk)
        }
    }

    static func kind(of name: [UInt8]) -> FoundFile.Kind? {
        guard let dot = name.lastIndex(of: 46) else { return nil }
        let ext = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        if audioExtensions.contains(ext) { return .audio }
        if playlistExtensions.contains(ext) { return .playlist }
        return nil
    }

    /// The bytes with a terminating NUL, as the C calls take them.
    private static func cString(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }
}
