import Foundation

/// What one sync of the crate's owned records with a MusicBrainz collection does: a three-way
/// merge of the releases owned here (`local`), those in the collection (`remote`) and those that
/// were in both at the last sync (`base`, the ledger) — docs/decisions/0047-musicbrainz-collection-sync.md.
///
/// - new here (local only, not in base) → added to the collection;
/// - new there (remote only, not in base) → owned here (another Crate, the website, a phone);
/// - removed here (remote, base, not local) → removed from the collection only once the user
///   confirmed it (`confirmed`); until then it waits and stays there;
/// - removed there (local, base, not remote) → no longer owned here: the user removed it on
///   another machine or on the website, so the crates converge;
/// - gone from both → forgotten.
public struct CollectionSyncPlan: Equatable, Sendable {
    public var push: [String] = []
    public var pull: [String] = []
    public var removeRemote: [String] = []
    public var awaitingConfirmation: [String] = []
    public var removedElsewhere: [String] = []
    /// In both, not yet in the ledger (a first sync): recorded as the new base.
    public var newlyInSync: [String] = []
    /// Gone from both since the last sync: dropped from the ledger.
    public var forgotten: [String] = []
    public var inSync = 0

    public init() {}

    /// Release ids are compared lower-cased, as MBIDs are stored.
    public static func make(local: Set<String>, remote: Set<String>, base: Set<String>, confirmed: Set<String>) -> CollectionSyncPlan {
        var plan = CollectionSyncPlan()
        for release in local.union(remote).union(base).sorted() {
            switch (local.contains(release), remote.contains(release), base.contains(release)) {
            case (true, true, let known):
                plan.inSync += 1
                if !known { plan.newlyInSync.append(release) }
            case (true, false, false): plan.push.append(release)
            case (true, false, true): plan.removedElsewhere.append(release)
            case (false, true, false): plan.pull.append(release)
            case (false, true, true):
                if confirmed.contains(release) { plan.removeRemote.append(release) } else { plan.awaitingConfirmation.append(release) }
            case (false, false, _): plan.forgotten.append(release)
            }
        }
        return plan
    }

    /// Nothing to send, own or remove.
    public var isEmpty: Bool {
        push.isEmpty && pull.isEmpty && removeRemote.isEmpty && removedElsewhere.isEmpty
    }
}
