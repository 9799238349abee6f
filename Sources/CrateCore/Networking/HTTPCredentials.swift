import Foundation

/// A user name and password for HTTP authentication. Its description never shows the password,
/// so a logged request cannot leak it.
public struct HTTPCredentials: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "\(user):•••" }
    public var debugDescription: String { description }
}
