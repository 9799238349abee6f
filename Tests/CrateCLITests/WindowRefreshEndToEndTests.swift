import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// The window, under Xvfb, shows a scan that a separate `crate scan` process saved: the library
/// announces the other process's commit and the grid and history refresh themselves, with no call
/// from the window. Needs `xvfb-run` and `dbus-run-session` (installed by scripts/install-deps).
@Suite("The window follows another process's scan", .tags(.process, .slow))
struct WindowRefreshEndToEndTests {
    static let desktop = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("CrateDesktop")
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-run-session")
        && FileManager.default.isExecutableFile(atPath: desktop.path)

    /// Lines the window printed, each with the moment it arrived.
    final class Lines: Sendable {
        private let seen = Mutex<[(line: String, at: Date)]>([])

        func append(_ text: String) {
            let now = Date()
            seen.withLock { lines in
                for line in text.split(separator: "\n") { lines.append((String(line), now)) }
            }
        }

        func firstSeenPrefix(_ prefix: String) -> Date? {
            seen.withLock { $0.first { $0.line.hasPrefix(prefix) }?.at }
        }

        func firstSeen(_ line: String) -> Date? {
            seen.withLock { $0.first { $0.line == line }?.at }
        }

        /// Waits up to `timeout` seconds for `line`.
        func wait(for line: String, timeout: TimeInterval) -> Date? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let at = firstSeen(line) { return at }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return firstSeen(line)
        }
    }

    /// Ends the window and everything it started (bus, Xvfb): SIGKILL to every descendant,
    /// found through /proc, since a child of a test thread may inherit a mask blocking SIGTERM.
    static func killTree(of window: Process) {
        var parents: [Int32: [Int32]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[parent, default: []].append(pid) }
        }
        var tree: [Int32] = [window.processIdentifier]
        var index = 0
        while index < tree.count {
            tree += parents[tree[index]] ?? []
            index += 1
        }
        for pid in tree.reversed() { kill(pid, SIGKILL) }
        window.waitUntilExit()
    }

    @Test(.enabled(if: available))
    func aCrateScanFromAnotherProcessAppearsInTheGridAndHistory() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ScanEndToEndTests.serve(server, cover: try Data(contentsOf: ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg")))
        let cli = try CLIRunner()
        let config = cli.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: config.appendingPathComponent("settings.json"))  // Not a first run.

        // Given the window open on an empty library
        let window = Process()
        // A private session bus keeps this window from handing itself to a Crate already running.
        window.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
        window.arguments = ["--", "xvfb-run", "-a", Self.desktop.path]
        window.environment = cli.environment.merging(["CRATE_TEST_EVENTS": "1", "CRATE_PLAYER": "log", "PATH": "/usr/bin:/bin"]) { _, new in new }
        let output = Pipe()
        window.standardOutput = output
        window.standardError = FileHandle.nullDevice
        let lines = Lines()
        output.fileHandleForReading.readabilityHandler = { handle in lines.append(String(decoding: handle.availableData, as: UTF8.self)) }
        try window.run()
        defer {
            output.fileHandleForReading.readabilityHandler = nil
            Self.killTree(of: window)
        }
        let opened = try await BlockingWork.run { lines.wait(for: "grid-count 0", timeout: 60) != nil && lines.wait(for: "history-count 0", timeout: 10) != nil }
        try #require(opened, "the window never showed the empty library")

        // When `crate scan` identifies a new cover in another process
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--json", photo], extraEnvironment: ScanEndToEndTests.environment(server))
        let committed = Date()  // The process has exited, so its commit is behind us.
        #expect(result.status == 0, "\(result.stderr)")

        // Then the grid and the history show it. The 1 s target is printed here and held by
        // scripts/ui-change-feed-test; this test waits on the window's own lines, with a ceiling
        // that only catches a window that never refreshes.
        for line in ["grid-count 1", "history-count 1"] {
            let seen = try await BlockingWork.run { lines.wait(for: line, timeout: 120) }
            let delay = seen.map { $0.timeIntervalSince(committed) }
            // Negative: shown while the other process was still fetching artwork and the review.
            print("window: '\(line)' \(delay.map { String(format: "%+.0f ms", $0 * 1000) } ?? "never") relative to the scan process's exit")
            #expect(seen != nil, "'\(line)' never shown")
        }
    }
}
