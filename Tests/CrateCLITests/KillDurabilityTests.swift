import CrateCore
import Foundation
import Testing

/// docs/reliability.md #1: SIGKILL a process that is saving scans, at random moments, many times. After
/// every kill the file passes `PRAGMA integrity_check` and holds every scan the writer reported
/// as committed (it prints `saved <id>` only after each commit).
@Suite("Kill -9 durability", .tags(.process, .slow))
struct KillDurabilityTests {
    static let targetKills = 200
    /// Keeps the test within about a minute; the count reached is printed.
    static let budget: TimeInterval = 55
    /// Fewer kills than this mean nothing, so a machine too busy to reach them in the budget
    /// goes on (up to `ceiling`) instead of failing for being slow.
    static let minimumKills = 50
    static let ceiling: TimeInterval = 150

    @Test(.timeLimit(.minutes(6)))
    func everyReportedScanSurvivesRepeatedKills() async throws {
        let cli = try CLIRunner()
        let paths = CratePaths(environment: cli.environment)
        let environment = cli.environment
        let stats = try await BlockingWork.run { () -> Stats in
            var stats = Stats()
            var generator = SystemRandomNumberGenerator()
            let start = Date()
            while stats.kills < Self.targetKills {
                let elapsed = Date().timeIntervalSince(start)
                guard elapsed < Self.budget || (stats.kills < Self.minimumKills && elapsed < Self.ceiling) else { break }
                let child = try ChildProcess(["debug", "write-scans", "1000000"], environment: environment, captureOutput: true)
                // Random moments: before the library is open, mid-migration, and mid-write. One
                // kill in four waits longer, so a machine slow to start processes still gets kills
                // in the middle of writing.
                let window: ClosedRange<UInt32> = stats.kills % 4 == 3 ? 300_000...1_500_000 : 0...150_000
                usleep(UInt32.random(in: window, using: &generator))
                if child.kill9() { stats.kills += 1 } else { stats.exitedEarly += 1 }
                let output = child.readOutput()
                // Only complete lines count: a line cut by the kill may not have been reported.
                let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                for line in lines where line.hasPrefix("saved ") {
                    if let id = Int64(line.dropFirst(6)) { stats.reported.insert(id) }
                }
                let database = try AppDatabase.open(paths: paths)
                let check = try database.integrityCheck()
                if check != ["ok"] { stats.integrityFailures.append(check.joined(separator: "; ")) }
                let present = try database.scanIDs()
                stats.missing.formUnion(stats.reported.subtracting(present))
                let orphans = try database.orphanCounts()
                stats.orphans += orphans.scansWithoutAlbum + orphans.albumsWithoutArtworkStatus
                stats.checks += 1
            }
            stats.seconds = Date().timeIntervalSince(start)
            return stats
        }
        print("kill -9 durability: \(stats.kills) kills (\(stats.exitedEarly) exited first) in \(Int(stats.seconds)) s, \(stats.checks) integrity checks, \(stats.integrityFailures.count) failed, \(stats.reported.count) scans reported saved, \(stats.missing.count) missing")
        #expect(stats.kills >= Self.minimumKills, "too few kills to mean anything: \(stats.kills)")
        #expect(stats.integrityFailures.isEmpty, "\(stats.integrityFailures.prefix(3))")
        #expect(stats.missing.isEmpty, "reported but lost: \(stats.missing.sorted().prefix(10))")
        #expect(stats.orphans == 0)
        #expect(stats.reported.count > 0, "the writer must have saved something between kills")
    }

    struct Stats: Sendable {
        var kills = 0
        var exitedEarly = 0
        var checks = 0
        var integrityFailures: [String] = []
        var reported: Set<Int64> = []
        var missing: Set<Int64> = []
        var orphans = 0
        var seconds: TimeInterval = 0
    }
}
