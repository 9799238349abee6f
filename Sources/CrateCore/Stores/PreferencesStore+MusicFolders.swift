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

/// The music folders in Preferences: added and removed one at a time and saved at once (instant
/// apply, like the rest of Preferences, but without the other fields' validation: a half-typed
/// endpoint does not stop a folder from being added). `onSaved` rebuilds the app's services,
/// and `onMusicFoldersChanged` re-indexes.
extension PreferencesStore {
    /// Adds `path` (a folder chosen in the file chooser). Nothing is saved when it fails.
    @discardableResult
    public func addMusicFolder(_ path: String) -> Bool {
        let folder = Self.normalised(path)
        var isDirectory: ObjCBool = false
        let current = state.value.musicFolders
        let problem: MusicFolderInputError?
        if !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
            || !FileManager.default.isReadableFile(atPath: folder) {
            problem = .notAFolder(folder)
        } else if current.contains(folder) && !state.value.musicFoldersAreDefault {
            problem = .alreadyAdded(folder)
        } else if let parent = current.first(where: { folder.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }), !state.value.musicFoldersAreDefault {
            problem = .insideAnother(folder: folder, parent: parent)
        } else {
            problem = nil
        }
        if let problem {
            state.update { $0.errorMessage = problem.message }
            return false
        }
        // The first folder chosen replaces the default; folders inside the new one go.
        var folders = state.value.musicFoldersAreDefault ? [] : saved.musicFolders
        folders.removeAll { $0.hasPrefix(folder + "/") }
        folders.append(folder)
        return saveMusicFolders(folders)
    }

    /// Removes a folder; removing the last one goes back to the default.
    @discardableResult
    public func removeMusicFolder(_ path: String) -> Bool {
        saveMusicFolders(saved.musicFolders.filter { $0 != path })
    }

    func saveMusicFolders(_ folders: [String]) -> Bool {
        var next = saved
        next.musicFolders = folders
        do {
            try next.save(paths: environment.paths)
        } catch {
            state.update { $0.errorMessage = UserMessage.text(for: error) }
            return false
        }
        saved = next
        state.update { $0.errorMessage = nil }
        showMusicFolders()
        onSaved?((try? next.applyingOverrides(from: environment.variables)) ?? next)
        onMusicFoldersChanged?()
        return true
    }

    func showMusicFolders() {
        let effective = (try? saved.applyingOverrides(from: environment.variables)) ?? saved
        state.update {
            $0.musicFolders = MusicFolders.resolve(settings: effective, environment: environment.variables)
            $0.musicFoldersAreDefault = effective.musicFolders.isEmpty
        }
    }

    static func normalised(_ path: String) -> String {
        var folder = (path as NSString).standardizingPath
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }
}

extension MusicFolderInputError: LocalizedError {
    public var errorDescription: String? { message }
}
