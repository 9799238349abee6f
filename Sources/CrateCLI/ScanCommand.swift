import ArgumentParser
import CrateCore
import Foundation

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Identify album covers from photos and save each scan.",
        discussion: "Exit code 0 if every photo was identified, 2 if some were not, 1 if any failed."
    )

    @Flag(help: "Print one JSON object per photo, one per line.")
    var json = false

    @Flag(help: "Tier 0 only: match against covers already in the crate, with no network at all.")
    var offline = false

    @Argument(help: "Photos of album covers (JPEG).")
    var photos: [String]

    func run() async throws {
        let pipeline: ScanPipeline
        let environment: AppEnvironment
        do {
            environment = try openEnvironment()
            pipeline = try environment.services(offline: offline).makeScanPipeline()
        } catch {
            throw fail(error)
        }
        var outcomes: [ScanReport.Status] = []
        // The names' exact bytes: one that is not UTF-8 must still open.
        for photo in RawArguments.paths(photos) {
            let url = URL(fileURLWithPath: photo)
            let report = await ScanReport.make(file: photo, pipeline: pipeline, url: url)
            outcomes.append(report.status)
            // The human line is already spelled safe for a terminal; JSON escapes its own.
            print(json ? report.jsonLine() : report.humanLine())
        }
        // Albums an earlier (killed, offline, failed) run left without tracks or artwork.
        if !offline { await RepairCommand.pass(with: pipeline, quiet: json) }
        // 80 % (or all) of this month's budget is used: one line on stderr.
        if !offline { UsageCommand.warnIfNearBudget(environment) }
        if outcomes.contains(.error) { throw ExitCode(1) }
        if outcomes.contains(.notIdentified) { throw ExitCode(2) }
    }
}
