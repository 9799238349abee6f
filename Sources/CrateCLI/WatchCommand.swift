import ArgumentParser
import CrateCore
import Foundation
import Synchronization

/// `crate watch DIR`: scans the photos that arrive in a folder (a phone's camera uploads) through
/// the library's queue, each new photo once; photos that are not covers are set aside quietly
/// (docs/decisions/0041-watched-photo-folder.md).
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Scan photos that arrive in a folder, until Ctrl+C.",
        discussion: """
        Only photos that arrive after the folder is first watched are scanned (and those that \
        arrived while no Crate watched it), each once whatever its name, once its file is \
        complete. Temporary names of Syncthing, Nextcloud and KDE Connect are ignored. Photos \
        that are not covers are set aside: `crate watch --set-aside` lists them.
        """
    )

    @Argument(help: "The folder to watch (its subfolders too).")
    var folder: String?

    @Flag(help: "Print one JSON object per photo, one per line (as `crate scan --json`); with --set-aside, one JSON array.")
    var json = false

    @Flag(help: "Scan what is new now, once its files are complete, then exit.")
    var once = false

    @Flag(help: "Tier 0 only: match against covers already in the crate, with no network at all.")
    var offline = false

    @Option(help: "Seconds a file's size must stay the same before it is read (default 3).")
    var settle: Double = PhotoFolderWatcher.defaultSettle

    @Flag(help: "List the watched photos that were set aside (not covers Crate could name), then exit.")
    var setAside = false

    func validate() throws {
        guard settle >= 0, settle <= 3600 else { throw ValidationError("--settle must be between 0 and 3600 seconds.") }
        if !setAside, folder == nil { throw ValidationError("Name the folder to watch.") }
    }

    func run() async throws {
        if setAside { return try listSetAside() }
        let environment: AppEnvironment
        let pipeline: ScanPipeline
        let watcher: PhotoFolderWatcher
        do {
            environment = try openEnvironment()
            pipeline = try environment.services(offline: offline).makeScanPipeline()
            watcher = PhotoFolderWatcher(folder: URL(fileURLWithPath: RawArguments.paths([folder ?? "."])[0]),
                                         database: environment.database, settle: settle)
            try watcher.begin()
        } catch {
            throw fail(error)
        }
        let scanner = WatchedPhotoScanner(queue: BatchQueue(database: environment.database), scanner: pipeline)
        let tally = WatchTally()
        let json = self.json, once = self.once, settle = self.settle
        let report: @Sendable (BatchOutcome) -> Void = { outcome in
            let line = Self.line(outcome, json: json)
            tally.count(outcome)
            // Written straight to the descriptor so a kill right after loses no line.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        if !json { Terminal.warn("Watching \(Terminal.field(watcher.folder)) for new photos…") }
        do {
            try await Interrupt.cancellingOnSignal {
                // What a killed watch left in the queue comes first.
                try await scanner.scan(try watcher.leftovers(), report: report)
                if once {
                    while true {
                        let pass = try watcher.poll()
                        tally.duplicates(pass.duplicates)
                        try await scanner.scan(pass.arrivals, report: report)
                        if pass.waiting == 0 { break }
                        try await Task.sleep(for: .milliseconds(Int(max(0.05, settle / 4) * 1000)))
                    }
                } else {
                    try await watcher.watch(onPass: { pass in
                        tally.duplicates(pass.duplicates)
                        do {
                            try await scanner.scan(pass.arrivals, report: report)
                        } catch {
                            Terminal.warn(UserMessage.text(for: error))
                        }
                    }, onError: { error in Terminal.warn(UserMessage.text(for: error)) })
                }
            }
        } catch {
            if !Interrupt.wasReceived { throw fail(error) }
        }
        if !json { Terminal.warn(tally.summary) }
        if Interrupt.wasReceived { throw ExitCode(130) }
    }

    private func listSetAside() throws {
        do {
            let database = try openDatabase(paths: CratePaths())
            let folder = self.folder.map { URL(fileURLWithPath: RawArguments.paths([$0])[0]).standardizedFileURL.path }
            let photos = try database.setAsidePhotos(folder: folder)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                encoder.keyEncodingStrategy = .convertToSnakeCase
                print(Terminal.json(try encoder.encode(photos)))
            } else if photos.isEmpty {
                Terminal.say("No photos were set aside.")
            } else {
                for photo in photos { Terminal.say("\(Terminal.field(photo.path)): \(Terminal.field(photo.reason))") }
            }
        } catch {
            throw fail(error)
        }
    }

    private static func line(_ outcome: BatchOutcome, json: Bool) -> String {
        let report: ScanReport
        switch outcome {
        case .scanned(let item, let result): report = ScanReport(file: item.path, result: result)
        case .failed(let item, let failure):
            if !json { return "set aside: \(Terminal.field(item.path)) (\(Terminal.field(failure.message)))" }
            report = ScanReport(file: item.path, failure: failure)
        case .skipped(let item, let reason): report = ScanReport(file: item.path, failure: .other(reason.message))
        }
        return json ? report.jsonLine() : report.humanLine()
    }
}

/// Counts what a watch did, for its closing line.
private final class WatchTally: Sendable {
    private let counts = Mutex((scanned: 0, setAside: 0, duplicates: 0))

    func count(_ outcome: BatchOutcome) {
        counts.withLock {
            switch outcome {
            case .scanned: $0.scanned += 1
            case .failed: $0.setAside += 1
            case .skipped: break
            }
        }
    }

    func duplicates(_ count: Int) {
        counts.withLock { $0.duplicates += count }
    }

    var summary: String {
        let counts = self.counts.withLock { $0 }
        return "\(counts.scanned) scanned, \(counts.setAside) set aside, \(counts.duplicates) skipped (the same bytes were taken before)."
    }
}
