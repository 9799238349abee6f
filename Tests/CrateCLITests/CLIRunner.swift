import CrateCore
import Foundation

/// Runs the built `crate` binary (it sits next to the test bundle) in a scratch environment.
struct CLIRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("crate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        [
            "HOME": root.path,
            "PATH": "/usr/bin:/bin",
            "CRATE_DATA_DIR": root.appendingPathComponent("data").path,
            "CRATE_CACHE_DIR": root.appendingPathComponent("cache").path,
            "CRATE_CONFIG_DIR": root.appendingPathComponent("config").path,
            "CRATE_STATE_DIR": root.appendingPathComponent("state").path,
        ]
    }

    /// The library folders the binary uses (`environment`'s), for tests that open it themselves.
    var paths: CratePaths {
        CratePaths(dataDirectory: root.appendingPathComponent("data"), cacheDirectory: root.appendingPathComponent("cache"),
                   configDirectory: root.appendingPathComponent("config"), stateDirectory: root.appendingPathComponent("state"))
    }

    static var binary: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("crate")
    }

    /// Runs the binary on its own thread: waiting for a child process on Swift's cooperative
    /// pool (two threads here) would stall every other test's async work meanwhile.
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) async throws -> Result {
        let environment = self.environment.merging(extraEnvironment) { _, new in new }
        return try await BlockingWork.run { try Self.runBlocking(arguments, environment: environment) }
    }

    static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}
