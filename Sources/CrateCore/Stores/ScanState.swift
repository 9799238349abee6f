import Foundation

/// The scan state machine the window shows:
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
    /// The photo being scanned now (nil for a switch to another candidate, and when idle).
    public var file: URL?
    /// The barcode looked up now, or whose look-up just ended (nil for photos and switches).
    public var barcode: Barcode?
    /// Set when a run of several photos ends: how many were scanned and how many not.
    public var summary: ScanSummary?

    /// "Scanning 2 of 5" when several files were dropped at once.
    public var countText: String? {
        total > 1 && position > 0 ? L10n.tr("Scanning %@ of %@", position, total) : nil
    }

    /// "Not this album?": the runners-up of the scan just completed, best first, with their
    /// scores; empty otherwise. Pick one with `ScanStore.choose(_:)`.
    public var candidates: [ScanCandidate] {
        guard case .complete(let result) = phase else { return [] }
        return result.rankedCandidates
    }

    public var isBusy: Bool {
        switch phase {
        case .identifying, .identified, .loadingReview: return true
        case .idle, .complete, .failed: return false
        }
    }

    public init() {}
}
