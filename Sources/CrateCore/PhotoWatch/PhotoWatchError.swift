import Foundation

/// Why a folder cannot be watched for photos.
public enum PhotoWatchError: Error, Equatable, Sendable, LocalizedError {
    /// The folder does not exist or is not a folder.
    case notAFolder(String)

    public var errorDescription: String? {
        switch self {
        case .notAFolder(let path): return L10n.tr("%@ is not a folder, so it cannot be watched for photos.", path)
        }
    }
}
