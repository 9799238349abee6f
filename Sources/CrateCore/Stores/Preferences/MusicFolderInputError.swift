import Foundation

/// Why a music folder cannot be added.
public enum MusicFolderInputError: Error, Equatable, Sendable {
    case notAFolder(String)
    case alreadyAdded(String)
    case insideAnother(folder: String, parent: String)

    public var message: String {
        switch self {
        case .notAFolder(let path): return L10n.tr("%@ is not a folder Crate can read.", PathBytes.displayName(path))
        case .alreadyAdded(let path): return L10n.tr("%@ is already a music folder.", PathBytes.displayName(path))
        case .insideAnother(let folder, let parent):
            return L10n.tr("%@ is inside %@, which is already indexed.", PathBytes.displayName(folder), PathBytes.displayName(parent))
        }
    }
}

extension MusicFolderInputError: LocalizedError {
    public var errorDescription: String? { message }
}
