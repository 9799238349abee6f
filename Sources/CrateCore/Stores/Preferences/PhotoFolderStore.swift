import Foundation

/// Preferences' "Scan photos that arrive in…": the folder (chosen in a file chooser) and the
/// switch, off by default, saved at once; and the photos set aside there. `onChanged` tells the
/// window's `PhotoFolderMonitor` to start, move or stop.
@MainActor
public final class PhotoFolderStore {
    public nonisolated static let shownSetAside = 20
    public let state = ObservableValue(PhotoFolderState())
    /// Called after the folder or the switch changed.
    public var onChanged: (() -> Void)?
    private let settings: PreferencesSettings

    init(settings: PreferencesSettings) {
        self.settings = settings
        show()
    }

    /// Chooses `path` as the folder and turns watching on. Nothing is saved when it is not a folder.
    @discardableResult
    public func choose(_ path: String) -> Bool {
        let folder = MusicFoldersStore.normalised(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: folder) else {
            state.update { $0.errorMessage = PhotoWatchError.notAFolder(folder).errorDescription }
            return false
        }
        return save { $0.photoFolder = folder; $0.watchPhotoFolder = true }
    }

    /// Turns watching on or off; on needs a folder.
    @discardableResult
    public func setOn(_ on: Bool) -> Bool {
        if on, settings.saved.photoFolder == nil {
            state.update { $0.errorMessage = L10n.tr("Choose the folder your phone's photos arrive in first.") }
            show(keepingError: true)
            return false
        }
        return save { $0.watchPhotoFolder = on }
    }

    /// Reads the set-aside list again (off the main actor).
    public func refreshSetAside() async {
        let database = settings.environment.database
        let read = await Task.detached { () -> ([SetAsidePhoto], Int)? in
            guard let all = try? database.setAsidePhotos() else { return nil }
            return (Array(all.prefix(PhotoFolderStore.shownSetAside)), all.count)
        }.value
        guard let (shown, count) = read else { return }
        state.update {
            $0.setAside = shown
            $0.setAsideCount = count
        }
    }

    private func save(_ change: (inout Settings) -> Void) -> Bool {
        do {
            try settings.save(change)
        } catch {
            state.update { $0.errorMessage = error.message }
            return false
        }
        show()
        onChanged?()
        return true
    }

    private func show(keepingError: Bool = false) {
        let saved = settings.saved
        state.update {
            $0.folder = saved.photoFolder
            $0.isOn = saved.watchPhotoFolder && saved.photoFolder != nil
            if !keepingError { $0.errorMessage = nil }
        }
    }
}
