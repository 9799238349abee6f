import Foundation

/// Preferences' Music page: folders added and removed one at a time and saved at once, without
/// the other pages' validation (a half-typed endpoint does not stop a folder from being added).
/// `onFoldersChanged` re-indexes.
@MainActor
public final class MusicFoldersStore {
    public let state = ObservableValue(MusicFoldersState())
    /// Called after the folders changed (the window re-indexes them and moves the watches).
    public var onFoldersChanged: (() -> Void)?
    /// Called after the ReplayGain mode was saved (the window hands it to the player).
    public var onReplayGainChanged: ((ReplayGainMode) -> Void)?
    private let settings: PreferencesSettings

    init(settings: PreferencesSettings) {
        self.settings = settings
        show()
    }

    /// Adds `path` (a folder chosen in the file chooser). Nothing is saved when it fails.
    @discardableResult
    public func add(_ path: String) -> Bool {
        let folder = Self.normalised(path)
        var isDirectory: ObjCBool = false
        let current = state.value.folders, isDefault = state.value.isDefault
        let problem: MusicFolderInputError?
        if !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
            || !FileManager.default.isReadableFile(atPath: folder) {
            problem = .notAFolder(folder)
        } else if current.contains(folder) && !isDefault {
            problem = .alreadyAdded(folder)
        } else if let parent = current.first(where: { folder.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }), !isDefault {
            problem = .insideAnother(folder: folder, parent: parent)
        } else {
            problem = nil
        }
        if let problem {
            state.update { $0.errorMessage = problem.message }
            return false
        }
        // The first folder chosen replaces the default; folders inside the new one go.
        var folders = isDefault ? [] : settings.saved.musicFolders
        folders.removeAll { $0.hasPrefix(folder + "/") }
        folders.append(folder)
        return save(folders)
    }

    /// Removes a folder; removing the last one goes back to the default.
    @discardableResult
    public func remove(_ path: String) -> Bool {
        save(settings.saved.musicFolders.filter { $0 != path })
    }

    /// Saves the ReplayGain mode at once; the player uses it from the next album it loads.
    @discardableResult
    public func setReplayGain(_ mode: ReplayGainMode) -> Bool {
        guard mode != settings.saved.replayGain else { return true }
        do {
            try settings.save { $0.replayGain = mode }
        } catch {
            state.update { $0.errorMessage = error.message }
            return false
        }
        show()
        onReplayGainChanged?(settings.effective.replayGain)
        return true
    }

    private func save(_ folders: [String]) -> Bool {
        do {
            try settings.save { $0.musicFolders = folders }
        } catch {
            state.update { $0.errorMessage = error.message }
            return false
        }
        show()
        onFoldersChanged?()
        return true
    }

    private func show() {
        let effective = settings.effective
        state.update {
            $0.folders = MusicFolders.resolve(settings: effective, environment: settings.environment.variables)
            $0.isDefault = effective.musicFolders.isEmpty
            $0.replayGain = effective.replayGain
            $0.errorMessage = nil
        }
    }

    static func normalised(_ path: String) -> String {
        var folder = (path as NSString).standardizingPath
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }
}
