import Foundation

/// The scan state machine the window shows (seed 001 / DESIGN §3.6):
/// identifying → identified → loading review → complete, or failed.
public struct ScanState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case idle
        case identifying
        case identified(Album)
        case loadingReview(Album)
        case complete(ScanResult)
        /// `file` is nil when the failure was not a file's (switching to another candidate).
        case failed(file: URL?, ScanFailure)
    }

    public var phase: Phase = .idle
    /// 1-based position of the running scan in the current batch, and the batch size.
    public var position = 0
    public var total = 0
    /// The progress line under the spinner.
    public var message = ""

    /// "Scanning 2 of 5" when several files were dropped at once.
    public var countText: String? {
        total > 1 && position > 0 ? "Scanning \(position) of \(total)" : nil
    }

    public var isBusy: Bool {
        switch phase {
        case .identifying, .identified, .loadingReview: return true
        case .idle, .complete, .failed: return false
        }
    }

    public init() {}
}

/// Queues dropped / opened files and scans them one after another.
@MainActor
public final class ScanStore {
    public static let identifyingMessage = "Extracting text and examining album art…"
    public static let searchingMessage = "Flipping through every record bin in existence…"
    public static let reviewMessage = "Writing a review that's somehow both pretentious and correct…"
    /// After this long still identifying, the message changes to `searchingMessage`.
    public static let slowIdentificationDelay: TimeInterval = 3.5

    public let state = ObservableValue(ScanState())
    /// Called after each scan that saved something, so the grid and history can refresh.
    public var onSaved: ((ScanResult) -> Void)?

    private var scanner: AlbumScanner
    private let sleep: @Sendable (TimeInterval) async -> Void
    private var pending: [URL] = []
    private var worker: Task<Void, Never>?
    private var current: Task<ScanResult, Error>?

    public init(scanner: AlbumScanner, sleep: @escaping @Sendable (TimeInterval) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }) {
        self.scanner = scanner
        self.sleep = sleep
    }

    /// Adds files to the queue; scanning starts (or continues) in order.
    public func scan(files: [URL]) {
        guard !files.isEmpty else { return }
        pending.append(contentsOf: files)
        state.update {
            if $0.isBusy { $0.total += files.count } else { $0.total = files.count; $0.position = 0 }
        }
        if worker == nil {
            worker = Task { await self.drain() }
        }
    }

    /// "Not this album?": switches the last scan to one of its other candidates.
    public func choose(_ candidate: Album) {
        guard case .complete(let result) = state.value.phase, let scanID = result.entry.scan.id, worker == nil else { return }
        let scanner = self.scanner
        state.update {
            $0.phase = .identified(candidate)
            $0.message = "We found \(candidate.title) by \(candidate.artist)"
        }
        worker = Task {
            do {
                var chosen = try await scanner.choose(candidate, replacing: scanID) { _ in }
                chosen.candidates = result.candidates.filter { $0 != candidate } + [result.entry.album]
                state.update { $0.phase = .complete(chosen); $0.message = "" }
                onSaved?(chosen)
            } catch {
                state.update { $0.phase = .failed(file: nil, .other((error as? LocalizedError)?.errorDescription ?? "\(error)")) }
            }
            worker = nil
        }
    }

    /// Uses a new scanner from the next scan on (after Preferences changed the provider).
    public func replaceScanner(_ scanner: AlbumScanner) {
        self.scanner = scanner
    }

    /// Stops the running scan and drops the rest of the queue (Escape).
    public func cancel() {
        pending.removeAll()
        current?.cancel()
    }

    /// Waits until the queue is empty (tests, CLI).
    public func waitUntilIdle() async {
        await worker?.value
    }

    // MARK: - Private

    private func drain() async {
        while !pending.isEmpty {
            let file = pending.removeFirst()
            await run(file)
        }
        worker = nil
    }

    private func run(_ file: URL) async {
        state.update {
            $0.position += 1
            $0.phase = .identifying
            $0.message = Self.identifyingMessage
        }
        let slowTimer = Task { [sleep] in
            await sleep(Self.slowIdentificationDelay)
            guard !Task.isCancelled else { return }
            await MainActor.run {
                if self.state.value.phase == .identifying { self.state.update { $0.message = Self.searchingMessage } }
            }
        }
        defer { slowTimer.cancel() }
        let scanner = self.scanner
        let task = Task.detached { () async throws -> ScanResult in
            try await scanner.scan(file: file) { event in
                Task { @MainActor in self.apply(event) }
            }
        }
        current = task
        do {
            let result = try await task.value
            await Task.yield()  // Let queued milestone events land before "complete".
            state.update {
                $0.phase = .complete(result)
                $0.message = ""
            }
            onSaved?(result)
        } catch {
            let failure: ScanFailure
            if let scanFailure = error as? ScanFailure { failure = scanFailure }
            else if error is CancellationError || task.isCancelled { failure = .cancelled }
            else { failure = .other((error as? LocalizedError)?.errorDescription ?? "\(error)") }
            state.update {
                $0.phase = .failed(file: file, failure)
                $0.message = failure.message
            }
        }
        current = nil
        if pending.isEmpty {
            state.update { $0.total = 0; $0.position = 0 }
        }
    }

    private func apply(_ event: ScanEvent) {
        guard state.value.isBusy else { return }  // A late event after cancel/failure is ignored.
        state.update {
            switch event {
            case .identified(let album):
                $0.phase = .identified(album)
                $0.message = "We found \(album.title) by \(album.artist)"
            case .loadingReview(let album):
                $0.phase = .loadingReview(album)
                $0.message = Self.reviewMessage
            }
        }
    }
}
