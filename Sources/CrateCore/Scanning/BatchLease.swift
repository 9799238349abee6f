import Foundation

/// How long a claim on a queued photo lasts, and how often a running scan renews it
/// (docs/decisions/0006-bulk-scan-queue.md).
///
/// Why these sizes: a scan renews its lease every 30 s while it runs, so the lease only has to
/// outlive a few missed renewals (a loaded machine, a short stop). A killed process on this
/// machine does not make its photo wait for the expiry: its lease is void as soon as its process
/// is gone (`BatchLeaseOwner.isCertainlyGone`). The expiry matters for a process that is stopped
/// or on another machine, and 2 minutes is short next to a bulk run.
public struct BatchLease: Sendable {
    public var duration: Duration
    public var renewEvery: Duration

    public init(duration: Duration, renewEvery: Duration) {
        self.duration = duration
        self.renewEvery = renewEvery
    }

    public static let standard = BatchLease(duration: .seconds(120), renewEvery: .seconds(30))

    /// `duration` in seconds, as the queue stores lease times.
    public var seconds: TimeInterval { Self.seconds(duration) }

    /// `renewEvery` in seconds, for the renewal timer.
    public var renewalSeconds: TimeInterval { Self.seconds(renewEvery) }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (whole, fraction) = duration.components
        return TimeInterval(whole) + TimeInterval(fraction) / 1e18
    }
}
