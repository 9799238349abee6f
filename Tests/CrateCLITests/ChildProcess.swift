import Foundation

/// A `crate` process that a test can kill at a moment of its choosing. Used only from
/// `BlockingWork.run` threads: it blocks while waiting.
final class ChildProcess {
    let process = Process()
    private let output = Pipe()

    /// Starts the built `crate` with `arguments`; stdout is captured when `captureOutput`.
    init(_ arguments: [String], environment: [String: String], captureOutput: Bool) throws {
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = captureOutput ? output : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// SIGKILL: no handler, no flush, no cleanup — the crash the database must survive.
    /// Returns true when the signal ended the process (false if it had already exited).
    @discardableResult
    func kill9() -> Bool {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Everything written to stdout, once the process is gone.
    func readOutput() -> String {
        String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}
