import Foundation

/// The five signals a Crate Wall blends, in the order the dial's tables list them.
public enum WallSignal: String, CaseIterable, Codable, Sendable, Comparable {
    case listeningHistory = "listening-history"
    case recommendations
    case popularCharts = "popular-charts"
    case newReleases = "new-releases"
    case wildCard = "wild-card"

    /// The name the wall shows ("Listening History").
    public var title: String {
        switch self {
        case .listeningHistory: return L10n.tr("Listening History")
        case .recommendations: return L10n.tr("Recommendations")
        case .popularCharts: return L10n.tr("Popular Charts")
        case .newReleases: return L10n.tr("New Releases")
        case .wildCard: return L10n.tr("Wild Card")
        }
    }

    public static func < (a: WallSignal, b: WallSignal) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One album on the wall: a MusicBrainz release group, with where it came from and its art.
public struct WallItem: Equatable, Hashable, Sendable, Codable {
    public var signal: WallSignal
    public var releaseGroupID: MBID
    public var title: String
    public var artist: String
    /// A release of the group, when the source named one (used to find its recordings).
    public var releaseID: MBID?
    /// Cover Art Archive art (250 px); nil when the source knows there is none (a placeholder is shown).
    public var artURL: URL?

    public init(signal: WallSignal, releaseGroupID: MBID, title: String, artist: String, releaseID: MBID? = nil, artURL: URL? = nil) {
        self.signal = signal
        self.releaseGroupID = releaseGroupID
        self.title = title
        self.artist = artist
        self.releaseID = releaseID
        self.artURL = artURL
    }
}

/// Cover Art Archive addresses that need no lookup first.
public enum CoverArtURL {
    /// `release/{caa_release_mbid}/{caa_id}-250.jpg` when ListenBrainz named the image, else the
    /// release group's front (a 307, or 404 when it has no art).
    public static func thumbnail(base: URL, releaseGroup: MBID, caaRelease: MBID?, caaID: Int64?) -> URL? {
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        if let caaRelease, let caaID, caaID > 0 {
            return URL(string: "\(root)/release/\(caaRelease.rawValue)/\(caaID)-250.jpg")
        }
        return URL(string: "\(root)/release-group/\(releaseGroup.rawValue)/front-250")
    }
}
