import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a photo the user named, checking before it reads: that it is an ordinary file (a folder,
/// a named pipe or a device would fail oddly or block forever), that it is not larger than
/// `maxBytes`, and that its first bytes are a JPEG — so a 4 GB file of anything is refused in
/// microseconds, with a sentence, instead of being read whole.
///
/// It opens the path's exact bytes (`PathBytes`), so a name that is not UTF-8 opens too.
enum ImageFile {
    /// No camera photo comes near this (a 100-megapixel JPEG is about 40 MB).
    static let maxBytes: Int64 = 100_000_000
    /// Enough for every signature `ImageFormat.sniff` knows.
    static let headerBytes = 16

    static func read(_ url: URL, maxBytes: Int64 = maxBytes) throws -> Data {
        let path = url.path
        let fd = try openReadOnly(path)
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ImageError.file(.from(errno: errno, path: path)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ImageError.file(.isFolder(path: path))
        case S_IFIFO: throw ImageError.file(.notRegularFile(path: path, kind: "a named pipe"))
        case S_IFSOCK: throw ImageError.file(.notRegularFile(path: path, kind: "a socket"))
        default: throw ImageError.file(.notRegularFile(path: path, kind: "a device"))
        }
        let size = Int64(info.st_size)
        if size == 0 { throw ImageError.emptyFile }
        if size > maxBytes { throw ImageError.file(.tooLarge(path: path, bytes: size, limit: maxBytes)) }

        // The signature first: a file that is not a JPEG is refused without reading the rest.
        try ImagePreparer.validate(try readBytes(fd, count: min(Int(size), headerBytes), path: path))
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw ImageError.file(.from(errno: errno, path: path)) }
        let data = try readBytes(fd, count: Int(size), path: path)
        if data.isEmpty { throw ImageError.emptyFile }
        return data
    }

    /// Why `path` cannot be a photo to queue (missing, a folder, a device, a pipe), or nil when it
    /// is an ordinary file. Nothing is read: the queue checks at add time what a scan would find.
    static func problem(queueing path: String) -> FileProblem? {
        var info = stat()
        var candidates = [PathBytes.bytes(of: path)]
        if PathBytes.hasRawBytes(path) { candidates.append(Array(path.utf8)) }
        var failure: Int32 = ENOENT
        for bytes in candidates {
            if (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer({ stat($0.baseAddress!, &info) }) == 0 {
                switch info.st_mode & S_IFMT {
                case S_IFREG: return nil
                case S_IFDIR: return .isFolder(path: path)
                case S_IFIFO: return .notRegularFile(path: path, kind: "a named pipe")
                case S_IFSOCK: return .notRegularFile(path: path, kind: "a socket")
                default: return .notRegularFile(path: path, kind: "a device")
                }
            }
            failure = errno
            if failure != ENOENT { break }
        }
        return .from(errno: failure, path: path)
    }

    /// Opens read-only without blocking (a named pipe with no writer would wait forever) and
    /// without becoming the controlling terminal. A name holding `PathBytes` stand-ins is tried
    /// with its raw bytes first, then literally.
    private static func openReadOnly(_ path: String) throws -> Int32 {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        var candidates = [PathBytes.bytes(of: path)]
        if PathBytes.hasRawBytes(path) { candidates.append(Array(path.utf8)) }
        var failure: Int32 = ENOENT
        for bytes in candidates {
            let fd = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { Glibc.open($0.baseAddress!, flags) }
            if fd >= 0 { return fd }
            failure = errno
            if failure != ENOENT { break }
        }
        throw ImageError.file(.from(errno: failure, path: path))
    }

    /// Up to `count` bytes from the current offset (fewer if the file ends first).
    private static func readBytes(_ fd: Int32, count: Int, path: String) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        try data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < count {
                let got = Glibc.read(fd, base + filled, count - filled)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ImageError.file(.from(errno: errno, path: path))
                }
                if got == 0 { break }
                filled += got
            }
        }
        data.count = filled
        return data
    }
}
