import Foundation

/// A photo from a watched folder that is not a cover Crate knows (not identified, unreadable):
/// kept in a list instead of being reported one failure at a time.
public struct SetAsidePhoto: Equatable, Sendable, Codable {
    public var path: String
    /// The watched folder it arrived in.
    public var folder: String
    /// Why it was set aside, for the user.
    public var reason: String
    public var arrivedAt: Date
    /// SHA-256 of its bytes.
    public var hash: String

    public init(path: String, folder: String, reason: String, arrivedAt: Date, hash: String) {
        self.path = path
        self.folder = folder
        self.reason = reason
        self.arrivedAt = arrivedAt
        self.hash = hash
    }
}
