import Foundation

/// Where services send their diagnostic lines. Live code uses the `[crate]` logger; tests inject a
/// collector so they can check what was logged (for instance, that an API key never is).
public struct DiagnosticLog: Sendable {
    private let write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    public func callAsFunction(_ message: String) {
        write(message)
    }

    /// The process logger (`Log.notice`).
    public static let standard = DiagnosticLog { Log.notice($0) }
    /// Drops everything.
    public static let silent = DiagnosticLog { _ in }
}
