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

    @Option(help: "A record's barcode (EAN-13, UPC-A, EAN-8 or UPC-E digits) instead of a photo: the crate first, then MusicBrainz.")
    var barcode: String?

    @Argument(help: "Photos of album covers (JPEG).")
    var photos: [String] = []

    func validate() throws {
        if barcode == nil, photos.isEmpty { throw ValidationError("Give photos to scan, or --barcode DIGITS.") }
        if barcode != nil, !photos.isEmpty { throw ValidationError("--barcode scans one barcode: give it without photos.") }
    }

    func run() async throws {
        let pipeline: ScanPipeline
        let environment: AppEnvironment
        do {
            environment = try openEnvironment()
            pipeline = try environment.services(offline: offline).makeScanPipeline()
        } catch {
            throw fail(error)
        }
        if let barcode {
            try await scan(barcode: barcode, with: pipeline)
            return
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

    /// `--barcode`: a wrong check digit or an ISBN is refused before anything is looked up.
    private func scan(barcode text: String, with pipeline: ScanPipeline) async throws {
        let code: Barcode
        do {
            code = try Barcode(typed: text)
        } catch {
            throw fail(error)
        }
        let report: ScanReport
        do {
            report = ScanReport(file: "barcode:\(code.digits)", result: try await pipeline.scan(barcode: code))
        } catch let failure as ScanFailure {
            report = ScanReport(file: "barcode:\(code.digits)", failure: failure)
        } catch {
            throw fail(error)
        }
        print(json ? report.jsonLine() : report.humanLine())
        if report.status == .error { throw ExitCode(1) }
        if report.status == .notIdentified { throw ExitCode(2) }
    }
}
