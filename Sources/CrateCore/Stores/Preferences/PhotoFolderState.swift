import Foundation

/// Preferences' "Scan photos that arrive in…" group.
public struct PhotoFolderState: Equatable, Sendable {
    /// The chosen folder (kept while the switch is off); nil before one is chosen.
    public var folder: String?
    public var isOn = false
    /// The latest photos set aside (not covers), newest first, at most `PhotoFolderStore.shownSetAside`.
    public var setAside: [SetAsidePhoto] = []
    public var setAsideCount = 0
    public var errorMessage: String?

    public init() {}

    /// The folder row's subtitle.
    public var folderText: String {
        folder.map { PathBytes.displayName($0) } ?? L10n.tr("No folder chosen")
    }

    /// "2 photos that are not covers" (the set-aside row's subtitle).
    public var setAsideText: String {
        setAsideCount == 0 ? L10n.tr("None yet")
            : L10n.plural("%@ photo that is not a cover", "%@ photos that are not covers", setAsideCount, setAsideCount)
    }
}
