import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// Many `crate` processes, one library (docs/reliability.md #18, #19): opening and migrating under
/// one lock, and queue items claimed by exactly one process.
@Suite("Many processes, one library", .tags(.process, .slow))
struct ConcurrentProcessesTests {
    /// Starts every command at the same moment (each on its own thread) and waits for all.
    private static func runTogether(_ cli: CLIRunner, _ commands: [[String]], extraEnvironment: [String: String] = [:]) throws -> [CLIRunner.Result] {
        let environment = cli.environment.merging(extraEnvironment) { _, new in new }
        let results = ResultSlots(count: commands.count)
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for (index, arguments) in commands.enumerated() {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                results.set(index, Result { try CLIRunner.runBlocking(arguments, environment: environment) })
                group.leave()
            }
        }
        for _ in commands { start.signal() }
        group.wait()
        return try results.all()
    }

    /// Four `crate scan` processes started together on a library that does not exist yet: all
    /// succeed, the migrations run once, and the file is sound.
    @Test(.timeLimit(.minutes(6)))
    func fourScansStartedTogetherOnAFreshLibraryAllSucceed() async throws {
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        var failures = 0, processes = 0
        // Several rounds: the race is about timing, one round may be lucky.
        for _ in 0..<5 {
            let cli = try CLIRunner()
            let results = try await BlockingWork.run {
                try Self.runTogether(cli, Array(repeating: ["scan", "--json", "--offline", photo], count: 4))
            }
            for result in results {
                processes += 1
                // Offline, on an empty crate, the photo is simply not identified (exit 2).
                if result.status != 2 || !result.stderr.isEmpty || !result.stdout.contains("not_identified") {
                    failures += 1
                    Issue.record("exit \(result.status): \(result.stdout) \(result.stderr)")
                }
            }
            let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            #expect(try database.integrityCheck() == ["ok"])
            #expect(try database.appliedMigrations() == AppDatabase.knownMigrations, "one set of migrations, each once")
        }
        print("concurrent opens of a fresh library: \(failures) of \(processes) processes failed")
    }

    /// Two `crate batch run`s over eight queued photos: each photo goes to the provider once.
    /// The limit only catches a hang: under the suite's stress-ng runs, with the whole suite in
    /// parallel, the two processes once took over 4 minutes (2026-11-29), as the four scans above may.
    @Test(.timeLimit(.minutes(6)))
    func twoBatchRunsSendEveryPhotoToTheProviderOnce() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        PacingFixtures.serve(server)
        let cli = try CLIRunner()
        let runtime = cli.root.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = ScanEndToEndTests.environment(server).merging(["XDG_RUNTIME_DIR": runtime.path]) { _, new in new }
        let photos = PacingFixtures.photos(from: 0) + (5..<8).map {
            ScanCommandTests.fixtures.appendingPathComponent(String(format: "photos/cover-%02d-photo-0.jpg", $0)).path
        }
        let added = try await cli.run(["batch", "add"] + photos)
        #expect(added.stdout.contains("Queued 8 photos."), "\(added.stderr)")

        let results = try await BlockingWork.run {
            try Self.runTogether(cli, [["batch", "run", "--json"], ["batch", "run", "--json"]], extraEnvironment: environment)
        }
        for result in results {
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        }
        let identifyCalls = server.requests(path: "/v1/messages").filter { String(decoding: $0.body, as: UTF8.self).contains("\"image\"") }.count
        print("identify calls for 8 photos with 2 concurrent batch runs: \(identifyCalls)")
        #expect(identifyCalls == 8, "no photo is sent to the provider twice")
        let lines = results.flatMap { $0.stdout.split(separator: "\n") }
        #expect(lines.count == 8, "one line per photo across both runs: \(lines)")
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let items = try database.batchItems()
        #expect(items.count == 8 && items.allSatisfy { $0.state == .done })
        #expect(try database.counts().scans == 8)
        #expect(try database.integrityCheck() == ["ok"])
    }

    /// A library in a directory this user cannot write still shows its history (read-only), and a
    /// write says why it failed in a sentence.
    @Test func aReadOnlyDataDirectoryStillShowsHistory() async throws {
        let cli = try ScanCommandTests.seededCLI()
        let data = cli.root.appendingPathComponent("data")
        let before = try await cli.run(["history", "--json"])
        #expect(before.status == 0, "\(before.stderr)")
        // The root user ignores permissions: the read-only run then drops to `nobody`.
        let asOtherUser = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        try Self.makeReadOnly(cli.root, data: data)
        defer { try? Self.makeWritable(cli.root) }
        let history = try await BlockingWork.run {
            try Self.runAs(asOtherUser, ["history", "--json"], environment: cli.environment)
        }
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout == before.stdout, "the same history, read-only")
        #expect(history.stderr.contains("read-only"), "\(history.stderr)")
        let photo = ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg").path
        let add = try await BlockingWork.run {
            try Self.runAs(asOtherUser, ["batch", "add", photo], environment: cli.environment)
        }
        #expect(add.status == 1)
        #expect(add.stderr.contains("read-only") && !add.stderr.contains("SQLite") && !add.stderr.contains("error "), "\(add.stderr)")
    }

    private static func runAs(_ prefix: [String], _ arguments: [String], environment: [String: String]) throws -> CLIRunner.Result {
        guard let tool = prefix.first else { return try CLIRunner.runBlocking(arguments, environment: environment) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = Array(prefix.dropFirst()) + [CLIRunner.binary.path] + arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRunner.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Everything under `root` readable by all; the data directory and its files not writable.
    private static func makeReadOnly(_ root: URL, data: URL) throws {
        let fm = FileManager.default
        for path in (try fm.subpathsOfDirectory(atPath: root.path)).map({ root.appendingPathComponent($0).path }) + [root.path] {
            var isDirectory: ObjCBool = false
            _ = fm.fileExists(atPath: path, isDirectory: &isDirectory)
            let writable = !path.hasPrefix(data.path)
            let mode: Int16 = isDirectory.boolValue ? (writable ? 0o777 : 0o555) : (writable ? 0o666 : 0o444)
            try fm.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        // The temporary directory's parents must let `nobody` through.
        try fm.setAttributes([.posixPermissions: 0o777], ofItemAtPath: root.path)
    }

    private static func makeWritable(_ root: URL) throws {
        let fm = FileManager.default
        for path in (try fm.subpathsOfDirectory(atPath: root.path)).map({ root.appendingPathComponent($0).path }) {
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
    }
}

/// One result per started command, filled from the threads that ran them.
private final class ResultSlots: Sendable {
    private let slots: Mutex<[Result<CLIRunner.Result, Error>?]>

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ result: Result<CLIRunner.Result, Error>) {
        slots.withLock { $0[index] = result }
    }

    func all() throws -> [CLIRunner.Result] {
        try slots.withLock { $0 }.map { try $0!.get() }
    }
}
