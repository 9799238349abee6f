import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `crate` with arguments given as raw bytes (a file name need not be UTF-8) and
/// reports the child's own peak memory, which `Process` cannot do.
///
/// The peak is measured by GNU time, which starts `crate` from its own small process. `wait4`
/// here would not do: a child spawned from this process starts life in its address space, and
/// Linux counts that address space's peak as the child's — the whole test process's memory,
/// which is large when tests run in parallel. Blocking: call it from `BlockingWork.run`.
enum RawProcess {
    struct Result {
        let status: Int32
        /// True when a signal ended the process (a crash).
        let signalled: Bool
        let stdout: String
        let stderr: String
        /// Peak resident memory of `crate`, in bytes; nil without `/usr/bin/time` (Debian `time`).
        let maxRSS: Int?
        let seconds: Double
    }

    static func run(_ arguments: [[UInt8]], environment: [String: String], in directory: URL) throws -> Result {
        let outURL = directory.appendingPathComponent("raw-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("raw-\(UUID().uuidString).err")
        let rssURL = directory.appendingPathComponent("raw-\(UUID().uuidString).rss")
        defer {
            for url in [outURL, errURL, rssURL] { try? FileManager.default.removeItem(at: url) }
        }
        let timeTool = "/usr/bin/time"
        let measured = FileManager.default.isExecutableFile(atPath: timeTool)
        let executable = measured ? timeTool : CLIRunner.binary.path
        let prefix = measured ? [timeTool, "-f", "%M", "-o", rssURL.path, CLIRunner.binary.path] : [CLIRunner.binary.path]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = (prefix.map { Array($0.utf8) } + arguments).map { bytes -> UnsafeMutablePointer<CChar>? in
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
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        var signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        var exitStatus = signalled ? -(status & 0x7f) : (status >> 8) & 0xff
        var maxRSS: Int?
        if measured {
            // GNU time's file: "Command terminated by signal N" when one ended `crate`, then the
            // peak in kilobytes.
            let report = (try? String(contentsOf: rssURL, encoding: .utf8)) ?? ""
            for line in report.split(separator: "\n") {
                if line.hasPrefix("Command terminated by signal "), let signal = Int32(line.split(separator: " ").last ?? "") {
                    signalled = true
                    exitStatus = -signal
                } else if let kilobytes = Int(line.trimmingCharacters(in: .whitespaces)) {
                    maxRSS = kilobytes * 1024
                }
            }
        }
        return Result(
            status: exitStatus,
            signalled: signalled,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            maxRSS: maxRSS,
            seconds: seconds)
    }
}
