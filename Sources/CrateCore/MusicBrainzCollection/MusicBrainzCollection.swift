import Foundation

/// One of the user's MusicBrainz release collections.
public struct MusicBrainzCollection: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    public var releaseCount: Int

    public init(id: String, name: String, releaseCount: Int) {
        self.id = id
        self.name = name
        self.releaseCount = releaseCount
    }
}

/// A page of a collection's releases (`GET /release?collection=…`): each ready to go into the
/// crate, and how many the collection holds in all.
public struct MusicBrainzCollectionPage: Equatable, Sendable {
    public var releases: [ReleaseDetails]
    public var total: Int

    public init(releases: [ReleaseDetails], total: Int) {
        self.releases = releases
        self.total = total
    }
}
