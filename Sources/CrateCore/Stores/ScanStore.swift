import Foundation

/// Queues dropped / opened files and scans them one after another.
///
/// Every unit of work (a file, a switch to another candidate, a barcode, a release the user
/// named) runs in one queue, one at a time, as `current`: a file dropped during a switch waits
/// its turn, and `cancel()` stops whichever is running.
@MainActor
public final class ScanStore {
    public static let identifyingMessage = L10n.tr("Extracting text and examining album art…")
    public static let searchingMessage = L10n.tr("Flipping through every record bin in existence…")
    public static let reviewMessage = L10n.tr("Writing a review that's somehow both pretentious and correct…")
    /// After this long still identifying, the message changes to `searchingMessage`.
    public static let slowIdentificationDelay: TimeInterval = 3.5

    public let state = ObservableValue(ScanState())
    /// Called after each scan that saved something, so the window can show the album.
    public var onSaved: ((ScanResult) -> Void)?

    /// One turn of the queue.
    private enum Job: Sendable {
        case file(URL)
        /// "Not this album?": replace the scan of `result` with `candidate`.
        case choose(Album, replacing: ScanResult)
        /// A typed or USB-scanned barcode.
        case barcode(Barcode)
        /// "Tell Crate what it is": the album the user chose (for a photo History lists, if any).
        case identify(Album, unscannedPhoto: Int64?)
    }

    private var scanner: AlbumScanner
    private let sleep: @Sendable (TimeInterval) async -> Void
    private var pending: [Job] = []
    private var worker: Task<Void, Never>?
    private var current: Task<ScanResult, Error>?
    /// Counts jobs; a timer started for an earlier job checks it before touching the state.
    private var jobNumber = 0
    /// The photos of the run under way (for its summary), and the file being scanned.
    private var runCounts = ScanSummary()
    private var runFiles = 0
    private var runNumber = 0
    private var currentFile: URL?

    public init(scanner: AlbumScanner, sleep: @escaping @Sendable (TimeInterval) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }) {
        self.scanner = scanner
        self.sleep = sleep
    }

    /// Adds files to the queue; scanning starts (or continues) in order.
    public func scan(files: [URL]) {
        guard !files.isEmpty else { return }
        let running = worker != nil
        if !running { runCounts = ScanSummary(); runFiles = 0 }
        runFiles += files.count
        pending.append(contentsOf: files.map(Job.file))
        state.update {
            if running { $0.total += files.count } else { $0.total = files.count; $0.position = 0 }
        }
        startWorker()
    }

    /// Looks up a typed or scanned barcode, after whatever is queued (its failure names no file).
    public func scan(barcode: Barcode) {
        pending.append(.barcode(barcode))
        startWorker()
    }

    /// Saves the album the user said a record is, after whatever is queued.
    public func identify(as album: Album, unscannedPhoto: Int64?) {
        pending.append(.identify(album, unscannedPhoto: unscannedPhoto))
        startWorker()
    }

    /// Files queued or being scanned now (so nobody queues one twice).
    public var queuedFiles: Set<URL> {
        var files = Set(pending.compactMap { job -> URL? in
            if case .file(let url) = job { return url.standardizedFileURL }
            return nil
        })
        if let currentFile { files.insert(currentFile.standardizedFileURL) }
        return files
    }

    /// "Not this album?": switches the last scan to one of its other candidates. Ignored unless
    /// the last scan completed and nothing else is queued or running.
    public func choose(_ candidate: Album) {
        guard worker == nil, case .complete(let result) = state.value.phase, result.entry.scan.id != nil else { return }
        pending.append(.choose(candidate, replacing: result))
        startWorker()
    }

    /// "Not this album?" on an older scan (an album's context menu): switches that scan to one
    /// of its candidates, as `choose(_:)` does for the last one. Ignored while a scan runs.
    public func choose(_ candidate: Album, replacing entry: HistoryEntry) {
        guard worker == nil, entry.scan.id != nil else { return }
        pending.append(.choose(candidate, replacing: ScanResult(entry: entry)))
        startWorker()
    }

    /// Uses a new scanner from the next scan on (after Preferences changed the provider).
    public func replaceScanner(_ scanner: AlbumScanner) {
        self.scanner = scanner
    }

    /// Stops the running scan or switch and drops the rest of the queue (Escape).
    public func cancel() {
        pending.removeAll()
        current?.cancel()
    }

    /// Waits until the queue is empty (tests, CLI).
    public func waitUntilIdle() async {
        await worker?.value
    }

    // MARK: - Private

    private func startWorker() {
        guard worker == nil else { return }
        worker = Task { await self.drain() }
    }

    private func drain() async {
        while !pending.isEmpty {
            await run(pending.removeFirst())
        }
        worker = nil
    }

    private func run(_ job: Job) async {
        jobNumber += 1
        let file: URL?
        switch job {
        case .file(let url):
            file = url
            currentFile = url
            state.update {
                $0.position += 1
                $0.file = url
                $0.barcode = nil
                $0.phase = .identifying
                $0.message = Self.identifyingMessage
            }
        case .choose(let candidate, _), .identify(let candidate, _):
            file = nil
            state.update {
                $0.file = nil
                $0.barcode = nil
                $0.phase = .identified(candidate)
                $0.message = Self.foundMessage(candidate)
            }
        case .barcode(let barcode):
            file = nil
            state.update {
                $0.file = nil
                $0.barcode = barcode
                $0.phase = .identifying
                $0.message = L10n.tr("Looking up barcode %@…", barcode.digits)
            }
        }
        let slowTimer = file == nil ? nil : startSlowTimer(job: jobNumber)
        defer { slowTimer?.cancel() }

        // This job's milestones travel through a stream of its own, applied in order. The stream
        // is finished (later events dropped) and drained before the outcome is shown, so every
        // milestone lands before "complete" and none can ever relabel the next job.
        let (events, sink) = AsyncStream.makeStream(of: ScanEvent.self)
        let applying = Task {
            for await event in events { self.apply(event) }
        }
        let scanner = self.scanner
        let task = Task.detached { () async throws -> ScanResult in
            let report: @Sendable (ScanEvent) -> Void = { sink.yield($0) }
            switch job {
            case .file(let url):
                return try await scanner.scan(file: url, events: report)
            case .choose(let candidate, let replaced):
                return try await scanner.choose(candidate, replacing: replaced.entry.id, events: report)
            case .barcode(let barcode):
                return try await scanner.scan(barcode: barcode, events: report)
            case .identify(let album, let photo):
                return try await scanner.identify(as: album, unscannedPhoto: photo, events: report)
            }
        }
        current = task
        let outcome: Result<ScanResult, Error>
        do {
            outcome = .success(try await task.value)
        } catch {
            outcome = .failure(error)
        }
        sink.finish()
        await applying.value
        current = nil
        currentFile = nil

        switch outcome {
        case .success(let result):
            state.update {
                $0.phase = .complete(result)
                $0.message = ""
            }
            if file != nil { runCounts.scanned += 1 }
            onSaved?(result)
        case .failure(let error):
            let failure = Self.failure(from: error, cancelled: task.isCancelled)
            if file != nil, failure != .cancelled {
                if failure.waitsForRetry { runCounts.waiting += 1 } else { runCounts.failed += 1 }
            }
            state.update {
                $0.phase = .failed(file: file, failure)
                $0.message = failure.message
            }
        }
        if pending.isEmpty {
            let summary: ScanSummary?
            if runFiles > 1, runCounts.scanned + runCounts.failed + runCounts.waiting > 0 {
                runNumber += 1
                var finished = runCounts
                finished.run = runNumber
                summary = finished
            } else {
                summary = nil
            }
            runCounts = ScanSummary()
            runFiles = 0
            state.update {
                $0.total = 0
                $0.position = 0
                if let summary { $0.summary = summary }
            }
        }
    }

    /// Changes the message while job `number` is still identifying after the delay.
    private func startSlowTimer(job number: Int) -> Task<Void, Never> {
        Task { [sleep] in
            await sleep(Self.slowIdentificationDelay)
            guard !Task.isCancelled, self.jobNumber == number, self.state.value.phase == .identifying else { return }
            self.state.update { $0.message = Self.searchingMessage }
        }
    }

    private func apply(_ event: ScanEvent) {
        guard state.value.isBusy else { return }
        state.update {
            switch event {
            case .identified(let album):
                $0.phase = .identified(album)
                $0.message = Self.foundMessage(album)
            case .loadingReview(let album):
                $0.phase = .loadingReview(album)
                $0.message = Self.reviewMessage
            }
        }
    }

    private static func foundMessage(_ album: Album) -> String {
        L10n.tr("We found %@ by %@", album.title, album.artist)
    }

    private static func failure(from error: Error, cancelled: Bool) -> ScanFailure {
        ScanFailure(error, cancelled: cancelled)
    }
}
