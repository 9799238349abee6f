import CrateCore
import Foundation

/// What can go wrong with the player process (`crate-player`) itself; messages are decided here.
public enum PlayerProcessError: Error, Equatable, Sendable {
    /// No `crate-player` next to Crate, in `<prefix>/lib/crate`, nor at `$CRATE_PLAYER_PATH`.
    case notInstalled(searched: [String])
    /// The executable is there but could not be started (`errno` from `posix_spawn`).
    case couldNotStart(path: String, errno: Int32)
    /// The player process ended before it answered its first command (`reason` as below).
    case endedAtStart(reason: String)
    /// The player answered a command with an error Crate has no type for.
    case failed(String)
    /// The player process ended while a track played (`reason`: "Aborted", "exit status 1");
    /// it was started again and carries on from where it was.
    case restarted(path: String?, reason: String)
    /// The player process ended twice on the same track: the track is skipped.
    case stoppedTwice(path: String?)
    /// The player process ended `count` times within a minute: playback stops.
    case keepsStopping(count: Int)

    public var message: String {
        switch self {
        case .notInstalled(let searched):
            let looked = searched.map(PathBytes.displayName).joined(separator: ", ")
            return L10n.tr("Crate's player (crate-player) is not installed (looked in %@). Reinstall Crate, or set CRATE_PLAYER_PATH to it.", looked)
        case .couldNotStart(let path, let errno):
            return L10n.tr("Crate could not start its player %@: %@.", PathBytes.displayName(path), String(cString: strerror(errno)))
        case .endedAtStart(let reason):
            return L10n.tr("Crate's player stopped (%@) as it started; its reason is in Crate's log (the terminal or the journal).", reason)
        case .failed(let text):
            return text
        case .restarted(let path, let reason):
            return L10n.tr("Crate's player stopped (%@) while playing %@; it was restarted and carries on from there.",
                           reason, path.map(PathBytes.displayName) ?? L10n.tr("this track"))
        case .stoppedTwice(let path):
            return L10n.tr("%@ stopped Crate's player twice; skipped to the next track.", path.map(PathBytes.displayName) ?? L10n.tr("This track"))
        case .keepsStopping(let count):
            return L10n.tr("Crate's player stopped %@ times within a minute; playback stopped. Press play to try again.", count)
        }
    }
}

extension PlayerProcessError: LocalizedError {
    public var errorDescription: String? { message }
}
