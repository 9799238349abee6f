import Foundation

/// A photo the user asked to scan that has no scan: it failed (not identified, unreadable) or it
/// waits for something that is not its fault (the network, a key, a service's pause). History
/// lists these above the scans, with the reason, Retry and Remove. Backed by a `batch_item`.
public struct UnscannedPhoto: Identifiable, Equatable, Sendable {
    /// The queue item's id.
    public var id: Int64
    public var path: String
    /// Why it has no scan, in words for the user.
    public var reason: String
    /// True while it is still queued: it is scanned again by itself (when the network returns,
    /// after a new key). False: it failed and is scanned again only on Retry.
    public var waits: Bool
    public var date: Date

    public init(id: Int64, path: String, reason: String, waits: Bool, date: Date) {
        self.id = id
        self.path = path
        self.reason = reason
        self.waits = waits
        self.date = date
    }

    /// The photo's file name, as the user knows it.
    public var name: String { URL(fileURLWithPath: path).lastPathComponent }
    public var url: URL { URL(fileURLWithPath: path) }
}
