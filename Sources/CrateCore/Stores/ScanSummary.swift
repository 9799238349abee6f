import Foundation

/// How a run of several photos ended ("3 scanned, 1 not identified").
public struct ScanSummary: Equatable, Sendable {
    public var scanned = 0
    /// Failed for the photo's own reason (not identified, unreadable).
    public var failed = 0
    /// Not the photo's fault (no network, no key): they wait in the queue.
    public var waiting = 0
    /// Counts the runs, so two runs that ended alike are still two summaries.
    public var run = 0

    public init(scanned: Int = 0, failed: Int = 0, waiting: Int = 0, run: Int = 0) {
        self.scanned = scanned
        self.failed = failed
        self.waiting = waiting
        self.run = run
    }

    /// "3 scanned, 1 not identified, 2 waiting for the network".
    public var text: String {
        var parts: [String] = []
        if scanned > 0 || (failed == 0 && waiting == 0) { parts.append(L10n.plural("%@ scanned", "%@ scanned", scanned, scanned)) }
        if failed > 0 { parts.append(L10n.plural("%@ not identified", "%@ not identified", failed, failed)) }
        if waiting > 0 { parts.append(L10n.plural("%@ waiting to be scanned again", "%@ waiting to be scanned again", waiting, waiting)) }
        return parts.joined(separator: ", ")
    }

    /// True when some photo has no scan (History lists it).
    public var hasProblems: Bool { failed + waiting > 0 }
}
