import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `crate` with arguments given as raw bytes (a file name need not be UTF-8) and
/// reports the child's own peak memory (`wait4`), which `Process` cannot do.
/// Blocking: call it from `BlockingWork.run`.
enum RawProcess {
    struct Result {
        let status: Int32
        /// True when a signal ended the process (a crash).
        let signalled: Bool
        let stdout: String
        let stderr: String
        /// Peak resident memory of the child, in bytes.
        let maxRSS: Int
        let seconds: Double
    }

    static func run(_ arguments: [[UInt8]], environment: [String: String], in directory: URL) throws -> Result {
        let outURL = directory.appendingPathComponent("raw-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("raw-\(UUID().uuidString).err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([Array(CLIRunner.binary.path.utf8)] + arguments).map { bytes -> UnsafeMutablePointer<CChar>? in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { $0?.deallocate() }
            envp.forEach { free($0) }
        }
        let start = Date()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, CLIRunner.binary.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        return Result(
            status: signalled ? -(status & 0x7f) : (status >> 8) & 0xff,
            signalled: signalled,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            maxRSS: Int(usage.ru_maxrss) * 1024,
            seconds: seconds)
    }
}
