import Foundation

/// What the user asked Crate to do on Discogs for one release.
public enum DiscogsAction: String, CaseIterable, Sendable, Codable {
    /// `POST /users/{u}/collection/folders/1/releases/{id}`: a NEW instance each time it is sent.
    case addToCollection = "collection"
    /// `PUT /users/{u}/wants/{id}`: the same result however often it is sent.
    case addToWantlist = "wantlist"
}

/// One row of the Discogs outbox, as a sender claimed it.
public struct DiscogsOutboxItem: Equatable, Sendable {
    public var id: Int64
    public var action: DiscogsAction
    public var releaseID: Int
    public var albumID: Int64?
    /// Claims so far, this one included.
    public var attempts: Int
    /// The user the last POST went out for, and how many copies they had just before it.
    public var username: String?
    public var copiesBefore: Int?
    /// Set just before a collection POST leaves and cleared only when its outcome is known: a
    /// row claimed with it set may already have been added (docs/decisions/0044-discogs-account-and-outbox.md).
    public var postedAt: Date?

    public init(id: Int64, action: DiscogsAction, releaseID: Int, albumID: Int64?, attempts: Int, username: String? = nil,
                copiesBefore: Int? = nil, postedAt: Date? = nil) {
        self.id = id
        self.action = action
        self.releaseID = releaseID
        self.albumID = albumID
        self.attempts = attempts
        self.username = username
        self.copiesBefore = copiesBefore
        self.postedAt = postedAt
    }
}

/// Where a queued action stands (the pane's "Adding to your Discogs collection…").
public struct DiscogsPendingAction: Equatable, Sendable {
    public var action: DiscogsAction
    /// The last problem, in words (nil while it simply waits its turn).
    public var error: String?
    public var nextAttemptAt: Date?

    public init(action: DiscogsAction, error: String? = nil, nextAttemptAt: Date? = nil) {
        self.action = action
        self.error = error
        self.nextAttemptAt = nextAttemptAt
    }
}

/// What Crate knows of one release in the user's Discogs account: copies in the collection and
/// whether it is wanted, each as of when it was read (nil: never read).
public struct DiscogsReleaseStatus: Equatable, Sendable {
    public var releaseID: Int
    public var copies: Int?
    public var copiesFetchedAt: Date?
    public var inWantlist: Bool?
    public var wantlistFetchedAt: Date?

    public init(releaseID: Int, copies: Int? = nil, copiesFetchedAt: Date? = nil, inWantlist: Bool? = nil, wantlistFetchedAt: Date? = nil) {
        self.releaseID = releaseID
        self.copies = copies
        self.copiesFetchedAt = copiesFetchedAt
        self.inWantlist = inWantlist
        self.wantlistFetchedAt = wantlistFetchedAt
    }

    /// "In your Discogs collection (2 copies)", "In your wantlist", both on one line, or nil.
    public var line: String? {
        var parts: [String] = []
        if let copies, copies > 0 {
            parts.append(L10n.plural("In your Discogs collection (%@ copy)", "In your Discogs collection (%@ copies)", copies, copies))
        }
        if inWantlist == true { parts.append(L10n.tr("In your wantlist")) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// True when a part was never read or was read before `now - interval`.
    public func isStale(at now: Date, interval: TimeInterval) -> Bool {
        guard let copiesFetchedAt, let wantlistFetchedAt else { return true }
        return now.timeIntervalSince(copiesFetchedAt) >= interval || now.timeIntervalSince(wantlistFetchedAt) >= interval
            || copiesFetchedAt > now || wantlistFetchedAt > now
    }
}
