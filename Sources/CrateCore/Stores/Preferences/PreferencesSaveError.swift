import Foundation

/// A Preferences change that could not be stored (settings.json or a key), in plain words.
public struct PreferencesSaveError: Error, Equatable, Sendable, LocalizedError {
    public var message: String

    public var errorDescription: String? { message }
}
