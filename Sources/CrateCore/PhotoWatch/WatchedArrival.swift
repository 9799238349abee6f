import Foundation

/// A new photo this process found in a watched folder and put in the scan queue.
public struct WatchedArrival: Equatable, Sendable {
    public var path: String
    public var hash: String
    /// Its `batch_item`: the scan that saves the photo finishes this item.
    public var batchItemID: Int64

    public init(path: String, hash: String, batchItemID: Int64) {
        self.path = path
        self.hash = hash
        self.batchItemID = batchItemID
    }
}
