import Foundation

/// How the pane reaches MusicBrainz for "Not this pressing?" (live: `AppModel`'s pipeline; tests
/// pass their own).
public struct PressingsClient: Sendable {
    /// The pressings of an album's release group, official first.
    public var list: @Sendable (_ albumID: Int64) async throws -> [Pressing]
    /// Switches the album to a release; returns the album that now stands for it (another
    /// album's when the crate already had that release).
    public var switchTo: @Sendable (_ albumID: Int64, _ releaseID: String) async throws -> Album

    public init(list: @escaping @Sendable (Int64) async throws -> [Pressing],
                switchTo: @escaping @Sendable (Int64, String) async throws -> Album) {
        self.list = list
        self.switchTo = switchTo
    }
}

/// "Not this pressing?": the list under the album pane's record.
public struct PressingsState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case closed
        case loading
        case loaded([Pressing])
        /// The list could not be read (offline, never matched to MusicBrainz, …), in plain words.
        case failed(String)
    }

    public var albumID: Int64?
    /// The release the album stands for now (marked in the list).
    public var currentReleaseID: String?
    public var phase: Phase = .closed
    /// The release being switched to (its row shows it; the others wait).
    public var switchingTo: String?
    /// Why the last switch did not happen.
    public var switchError: String?

    public init() {}

    public var isOpen: Bool { phase != .closed }
}

/// Lists an album's pressings and switches the album to one. A list asked for an album the pane
/// no longer shows is dropped; a switch is one transaction in the core (nothing changes when it
/// fails).
@MainActor
public final class PressingsStore {
    public let state = ObservableValue(PressingsState())
    private let client: PressingsClient
    /// Counts requests: an answer for an older one is dropped.
    private var request = 0

    public init(client: PressingsClient) {
        self.client = client
    }

    /// Opens the list for `albumID` (standing for release `currentReleaseID`) and reads it.
    public func open(albumID: Int64, currentReleaseID: String?) async {
        request += 1
        let current = request
        var next = PressingsState()
        next.albumID = albumID
        next.currentReleaseID = currentReleaseID
        next.phase = .loading
        state.set(next)
        let phase: PressingsState.Phase
        do {
            phase = .loaded(try await client.list(albumID))
        } catch {
            phase = .failed(UserMessage.text(for: error))
        }
        guard current == request else { return }
        state.update { $0.phase = phase }
    }

    /// Closes the list (another album shown, or the user closed it).
    public func close() {
        request += 1
        state.set(PressingsState())
    }

    /// Switches the shown album to `releaseID`. Returns the album that now stands for the
    /// release (the window shows it: its id differs when it was merged into one the crate had),
    /// or nil when the switch failed (`switchError` says why) or was superseded.
    public func choose(releaseID: String) async -> Album? {
        guard let albumID = state.value.albumID, state.value.switchingTo == nil else { return nil }
        let current = request
        state.update {
            $0.switchingTo = releaseID
            $0.switchError = nil
        }
        do {
            let album = try await client.switchTo(albumID, releaseID)
            guard current == request else { return album }
            state.update {
                $0.switchingTo = nil
                $0.albumID = album.id
                $0.currentReleaseID = album.musicBrainzReleaseID
            }
            return album
        } catch {
            guard current == request else { return nil }
            state.update {
                $0.switchingTo = nil
                $0.switchError = UserMessage.text(for: error)
            }
            return nil
        }
    }
}
