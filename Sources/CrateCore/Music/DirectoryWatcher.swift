import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// inotify watches on a set of directories (inotify is not recursive: one watch per directory),
/// through one inotify instance. `onChange` gets the directory (or, on a queue overflow, "")
/// where an entry was created, deleted, moved or finished being written. `close()` (or release)
/// gives the instance back: the user's instances are few (128 by default), shared by every
/// program.
public final class DirectoryWatcher: @unchecked Sendable {
    /// What a `watch` call managed.
    public struct Result: Equatable, Sendable {
        /// Directories watched, in the order given.
        public var watched: Int
        /// Directories over the budget, or refused by the kernel (`ENOSPC`: the user's watches
        /// are used up by other programs), in the order given.
        public var unwatched: [String]
        /// True when the kernel refused a watch for lack of room (not the budget).
        public var kernelLimitReached: Bool
    }

    private let fd: Int32
    private let lock = NSLock()
    private var pathByDescriptor: [Int32: String] = [:]
    private var descriptorByPath: [String: Int32] = [:]
    private var source: DispatchSourceRead?
    private let onChange: @Sendable (String) -> Void

    /// What is watched: entries created, deleted or moved in or out; files closed after writing;
    /// the directory itself deleted or moved. Writes in progress (`IN_MODIFY`) are not: the
    /// close that ends them is.
    static let mask: UInt32 = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Throws `DirectoryWatcherError.unavailable` when no inotify instance can be made.
    public init(onChange: @escaping @Sendable (String) -> Void) throws {
        // IN_CLOEXEC | IN_NONBLOCK (O_CLOEXEC, O_NONBLOCK).
        let descriptor = inotify_init1(Int32(O_CLOEXEC | O_NONBLOCK))
        guard descriptor >= 0 else { throw DirectoryWatcherError.unavailable(errno: errno) }
        fd = descriptor
        self.onChange = onChange
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "crate.directory-watcher"))
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { Glibc.close(descriptor) }
        self.source = source
        source.resume()
    }

    deinit { close() }

    /// Stops watching and closes the inotify instance (idempotent).
    public func close() {
        lock.lock()
        let source = self.source
        self.source = nil
        pathByDescriptor = [:]
        descriptorByPath = [:]
        lock.unlock()
        source?.cancel()
    }

    /// How many directories are watched now.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return descriptorByPath.count
    }

    /// Watches exactly `directories` (in order) up to `budget` watches; watches of directories
    /// no longer listed are removed first, so a tree that shrank frees its room.
    @discardableResult
    public func watch(_ directories: [String], budget: Int) -> Result {
        lock.lock()
        defer { lock.unlock() }
        guard source != nil else { return Result(watched: 0, unwatched: directories, kernelLimitReached: false) }
        var watched = 0
        var unwatched: [String] = []
        var kernelLimit = false
        var keep = Set<String>()
        for path in directories {
            if watched >= budget || kernelLimit {
                unwatched.append(path)
                continue
            }
            if descriptorByPath[path] == nil {
                let descriptor = inotify_add_watch(fd, path, Self.mask)
                guard descriptor >= 0 else {
                    if errno == ENOSPC { kernelLimit = true }
                    unwatched.append(path)
                    continue
                }
                descriptorByPath[path] = descriptor
                pathByDescriptor[descriptor] = path
            }
            keep.insert(path)
            watched += 1
        }
        // Directories no longer listed, or over the budget now, give their watches back.
        for (path, descriptor) in descriptorByPath where !keep.contains(path) {
            inotify_rm_watch(fd, descriptor)
            descriptorByPath[path] = nil
            pathByDescriptor[descriptor] = nil
        }
        return Result(watched: descriptorByPath.count, unwatched: unwatched, kernelLimitReached: kernelLimit)
    }

    /// Reads every queued event (the descriptor is non-blocking) and reports their directories.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var changed: [String] = []
        var overflow = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            let header = 16
            lock.lock()
            while offset + header <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes {
                    ($0.loadUnaligned(fromByteOffset: offset, as: Int32.self), $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                }
                offset += header + Int(length)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true; continue }
                guard let path = pathByDescriptor[wd] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The directory is gone (or its watch removed): forget the descriptor.
                    pathByDescriptor[wd] = nil
                    if descriptorByPath[path] == wd { descriptorByPath[path] = nil }
                    continue
                }
                if changed.last != path { changed.append(path) }
            }
            lock.unlock()
        }
        if overflow { onChange("") }
        for path in changed { onChange(path) }
    }

    // MARK: - The budget

    /// The user's inotify watch limit (`/proc/sys/fs/inotify/max_user_watches`), nil if unreadable.
    public static func maxUserWatches(procFile: String = "/proc/sys/fs/inotify/max_user_watches") -> Int? {
        guard let data = FileManager.default.contents(atPath: procFile) else { return nil }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The share of the user's watches Crate takes: half (editors, file indexers and sync tools
    /// share the same limit), or `CRATE_MUSIC_WATCH_BUDGET` when set to a number ≥ 0; 4 000
    /// when the limit cannot be read.
    public static func budget(environment: [String: String], maxUserWatches: Int?) -> Int {
        if let text = environment["CRATE_MUSIC_WATCH_BUDGET"], let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 {
            return value
        }
        guard let maxUserWatches else { return 4000 }
        return maxUserWatches / 2
    }
}

public enum DirectoryWatcherError: Error, Equatable, Sendable, LocalizedError {
    /// inotify_init1 failed (`EMFILE`: the user's inotify instances are used up).
    case unavailable(errno: Int32)

    public var errorDescription: String? {
        switch self {
        case .unavailable(let code) where code == EMFILE:
            return L10n.tr("The music folders cannot be watched for changes: other programs use all of the system's inotify instances. Crate re-indexes them every few minutes instead.")
        case .unavailable:
            return L10n.tr("The music folders cannot be watched for changes. Crate re-indexes them every few minutes instead.")
        }
    }
}

/// The directories of a tree, breadth first (roots first), listed with `readdir`'s entry types
/// so files cost no `stat`; symbolic links and hidden entries are not followed.
public enum DirectoryTree {
    public static func directories(under roots: [String]) -> [String] {
        var result: [String] = []
        var queue: [String] = []
        var seen = Set<String>()
        for root in roots {
            var info = stat()
            guard stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, seen.insert(root).inserted else { continue }
            queue.append(root)
        }
        var index = 0
        while index < queue.count {
            let directory = queue[index]
            index += 1
            result.append(directory)
            guard let handle = opendir(directory) else { continue }
            var children: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                guard !name.hasPrefix(".") else { continue }
                let path = directory + "/" + name
                var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    isDirectory = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                }
                if isDirectory { children.append(path) }
            }
            closedir(handle)
            queue.append(contentsOf: children.sorted())
        }
        return result
    }
}
