import Foundation

/// Preferences' "MusicBrainz Collection" page.
public struct MusicBrainzCollectionState: Equatable, Sendable {
    public enum Work: Equatable, Sendable {
        case signingIn
        case syncing
    }

    public var user = ""
    public var isSignedIn = false
    public var collections: [MusicBrainzCollection] = []
    public var chosenID: String?
    public var chosenName: String?
    public var work: Work?
    /// The last sync's summary, or why something failed.
    public var message: String?
    public var isError = false
    /// Records removed here that stay in the collection until the user confirms.
    public var awaitingRemoval = 0

    public init() {}

    /// The account row's subtitle.
    public var accountText: String {
        isSignedIn ? L10n.tr("Signed in as %@", user) : L10n.tr("Not signed in")
    }

    /// The collection row's subtitle.
    public var collectionText: String {
        guard let chosenID else { return collections.isEmpty ? L10n.tr("Sign in to see your collections") : L10n.tr("None chosen") }
        return chosenName ?? chosenID
    }

    /// The index of the chosen collection in `collections`, if listed.
    public var chosenIndex: Int? { collections.firstIndex { $0.id == chosenID } }
}
