import ArgumentParser
import CrateCore
import Foundation
import Synchronization

/// `crate batch`: a bulk scan through the library's queue, so a kill or a crash loses nothing
/// and scans nothing twice (docs/reliability.md #5).
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Scan many photos through a queue that survives interruptions.",
        discussion: """
        `crate batch add PHOTO...` queues photos; `crate batch run` scans everything still waiting; \
        `crate batch status` counts what is pending, done and failed. If a run is interrupted \
        (killed, crashed, power cut), the next `run` resumes with the photos not yet saved: \
        each photo is scanned exactly once.
        """,
        subcommands: [Add.self, Run.self, Status.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Queue photos for `crate batch run`.")

        @Argument(help: "Photos of album covers (JPEG).")
        var photos: [String]

        func run() throws {
            do {
                let queue = BatchQueue(database: try openDatabase(paths: CratePaths()))
                // Queued with their exact bytes, so `batch run` opens what `scan` would. Names that
                // are not files are refused now, with the reason, rather than failing in the run.
                let files = RawArguments.paths(photos).map { URL(fileURLWithPath: $0) }
                let refused = files.compactMap { file in BatchQueue.refusal(for: file).map { (file, $0) } }
                for (_, reason) in refused { Terminal.warn(reason) }
                let accepted = files.filter { file in !refused.contains { $0.0 == file } }
                let added = try queue.enqueue(accepted)
                let skipped = accepted.count - added
                Terminal.say("Queued \(added) photo\(added == 1 ? "" : "s")\(skipped > 0 ? " (\(skipped) already waiting)" : "").")
                if !refused.isEmpty { throw ExitCode(1) }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw fail(error)
            }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Scan the queued photos, resuming where an interrupted run stopped.",
            discussion: "Exit code 0 if every photo was identified, 2 if some were not, 1 if any failed or the run stopped."
        )

        @Flag(help: "Print one JSON object per photo, one per line (as `crate scan --json`).")
        var json = false

        @Flag(help: "Tier 0 only: match against covers already in the crate, with no network at all.")
        var offline = false

        @Option(help: "Scan at most this many photos, then stop.")
        var limit: Int?

        func validate() throws {
            if let limit { try OptionRange.check(limit, in: OptionRange.limit, name: "--limit") }
        }

        func run() async throws {
            let runner: BatchRunner
            let pipeline: ScanPipeline
            let environment: AppEnvironment
            do {
                environment = try openEnvironment()
                pipeline = try environment.services(offline: offline).makeScanPipeline()
                runner = BatchRunner(queue: BatchQueue(database: environment.database), scanner: pipeline)
            } catch {
                throw fail(error)
            }
            let json = self.json
            let statuses = StatusLog()
            let limit = self.limit
            do {
                _ = try await Interrupt.cancellingOnSignal {
                    try await runner.run(limit: limit) { outcome in
                        let report = Self.report(outcome)
                        statuses.append(report.status)
                        // Written straight to the descriptor so a kill right after loses no line.
                        FileHandle.standardOutput.write(Data(((json ? report.jsonLine() : report.humanLine()) + "\n").utf8))
                    }
                }
            } catch {
                if Interrupt.wasReceived {
                    // The photo being scanned went back to the queue with all its tries.
                    Terminal.warn("Interrupted; the photos not scanned yet stay queued for the next `crate batch run`.")
                    throw ExitCode(130)
                }
                throw fail(error)
            }
            // Albums an earlier (killed, offline, failed) run left without tracks or artwork.
            if !offline { await RepairCommand.pass(with: pipeline, quiet: json) }
            if !offline { UsageCommand.warnIfNearBudget(environment) }
            if statuses.all.contains(.error) { throw ExitCode(1) }
            if statuses.all.contains(.notIdentified) { throw ExitCode(2) }
        }

        private static func report(_ outcome: BatchOutcome) -> ScanReport {
            switch outcome {
            case .scanned(let item, let result): return ScanReport(file: item.path, result: result)
            case .failed(let item, let failure): return ScanReport(file: item.path, failure: failure)
            case .skipped(let item, let reason): return ScanReport(file: item.path, failure: .other(reason.message))
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count queued photos: pending, done, failed.")

        @Flag(help: "Print the counts (and each failure) as one JSON object.")
        var json = false

        func run() throws {
            do {
                let queue = BatchQueue(database: try openDatabase(paths: CratePaths()))
                let counts = try queue.counts()
                if json {
                    let failures = try queue.items(state: .failed).map { ["path": $0.path, "error": $0.error ?? ""] }
                    let object: [String: Any] = ["pending": counts.pending, "done": counts.done, "failed": counts.failed, "failures": failures]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                    print(Terminal.json(data))
                } else {
                    Terminal.say("pending \(counts.pending), done \(counts.done), failed \(counts.failed)")
                    for item in try queue.items(state: .failed) {
                        Terminal.say("  failed: \(Terminal.field(item.path)): \(Terminal.field(item.error ?? "unknown error"))")
                    }
                }
            } catch {
                throw fail(error)
            }
        }
    }
}

/// Collects statuses from the runner's report callback.
private final class StatusLog: Sendable {
    private let statuses = Mutex<[ScanReport.Status]>([])

    func append(_ status: ScanReport.Status) {
        statuses.withLock { $0.append(status) }
    }

    var all: [ScanReport.Status] {
        statuses.withLock { $0 }
    }
}
