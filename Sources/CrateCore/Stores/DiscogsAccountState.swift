import Foundation

/// The album pane's Discogs account line and buttons
/// (docs/decisions/0044-discogs-account-and-outbox.md).
public struct DiscogsAccountState: Equatable, Sendable {
    public var albumID: Int64?
    /// The album's Discogs release (nil: not matched, nothing to show).
    public var releaseID: Int?
    /// A Discogs token is set.
    public var hasToken = false
    /// Crate can reach Discogs now (a token and not offline): additions go at once.
    public var canSend = false
    /// As last read (cached; refreshed at most every few hours).
    public var status: DiscogsReleaseStatus?
    /// Additions waiting in the outbox for this release.
    public var pending: [DiscogsPendingAction] = []
    /// Why the last tap or refresh did not work, in words.
    public var errorMessage: String?

    public init() {}

    /// Status and buttons show only with a token and a Discogs release.
    public var isAvailable: Bool { hasToken && releaseID != nil }

    /// "In your Discogs collection (2 copies)" / "In your wantlist" / nil.
    public var statusLine: String? { isAvailable ? status?.line : nil }

    public func isPending(_ action: DiscogsAction) -> Bool { pending.contains { $0.action == action } }

    public var canAddToCollection: Bool { isAvailable && !isPending(.addToCollection) }

    /// Hidden when the release is already wanted.
    public var canAddToWantlist: Bool { isAvailable && !isPending(.addToWantlist) && status?.inWantlist != true }

    /// "Add to Discogs Collection", or "Add Another Copy to Discogs" when the user has one.
    public var collectionButtonTitle: String {
        (status?.copies ?? 0) > 0 ? L10n.tr("Add Another Copy to Discogs") : L10n.tr("Add to Discogs Collection")
    }

    /// "Adding to your Discogs collection…", queued offline, or waiting after a problem.
    public var pendingLine: String? {
        guard isAvailable, !pending.isEmpty else { return nil }
        let lines = pending.map { item -> String in
            let doing = item.action == .addToCollection ? L10n.tr("Adding to your Discogs collection…") : L10n.tr("Adding to your wantlist…")
            if let error = item.error { return L10n.tr("%@ %@", doing, error) }
            if !canSend { return L10n.tr("%@ Queued: sent when Crate is online.", doing) }
            return doing
        }
        return lines.joined(separator: "\n")
    }
}
