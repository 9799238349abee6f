import Foundation

// The JSON shapes of ListenBrainz's API. Only the release group (or recording) MBID is required
// of an item; everything else is optional and decoded leniently, and one unreadable item never
// drops the list around it.

/// A release group as ListenBrainz's statistics and fresh releases name it.
public struct ListenBrainzReleaseGroup: Equatable, Sendable {
    public var releaseGroupID: MBID
    public var title: String
    public var artist: String
    public var releaseID: MBID?
    public var caaID: Int64?
    public var caaReleaseID: MBID?
    /// Fresh releases: `Album`, `EP`, `Single`, …
    public var primaryType: String?
    public var releaseDate: String?
    public var listenCount: Int?
}

struct LBStatsPayload: Decodable {
    let releaseGroups: [LBStatsReleaseGroup]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let payload = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("payload"))
        guard payload.contains(AnyKey("release_groups")) else {
            throw DecodingError.keyNotFound(AnyKey("release_groups"), .init(codingPath: [], debugDescription: "no release_groups"))
        }
        releaseGroups = payload.lenientArray(LBStatsReleaseGroup.self, AnyKey("release_groups"))
    }
}

struct LBStatsReleaseGroup: Decodable {
    let value: ListenBrainzReleaseGroup

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let id = MBID(validating: c.lenientString(AnyKey("release_group_mbid"))) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no release group"))
        }
        value = ListenBrainzReleaseGroup(
            releaseGroupID: id,
            title: c.lenientString(AnyKey("release_group_name")) ?? "",
            artist: c.lenientString(AnyKey("artist_name")) ?? "",
            releaseID: nil,
            caaID: c.lenientInt(AnyKey("caa_id")).map(Int64.init),
            caaReleaseID: MBID(validating: c.lenientString(AnyKey("caa_release_mbid"))),
            primaryType: nil, releaseDate: nil,
            listenCount: c.lenientInt(AnyKey("listen_count")))
    }
}

struct LBFreshPayload: Decodable {
    let releases: [LBFreshRelease]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let payload = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("payload"))
        guard payload.contains(AnyKey("releases")) else {
            throw DecodingError.keyNotFound(AnyKey("releases"), .init(codingPath: [], debugDescription: "no releases"))
        }
        releases = payload.lenientArray(LBFreshRelease.self, AnyKey("releases"))
    }
}

struct LBFreshRelease: Decodable {
    let value: ListenBrainzReleaseGroup

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let id = MBID(validating: c.lenientString(AnyKey("release_group_mbid"))) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no release group"))
        }
        value = ListenBrainzReleaseGroup(
            releaseGroupID: id,
            title: c.lenientString(AnyKey("release_name")) ?? "",
            artist: c.lenientString(AnyKey("artist_credit_name")) ?? "",
            releaseID: MBID(validating: c.lenientString(AnyKey("release_mbid"))),
            caaID: c.lenientInt(AnyKey("caa_id")).map(Int64.init),
            caaReleaseID: MBID(validating: c.lenientString(AnyKey("caa_release_mbid"))),
            primaryType: c.lenientString(AnyKey("release_group_primary_type")),
            releaseDate: c.lenientString(AnyKey("release_date")),
            listenCount: nil)
    }
}

/// One listen's MusicBrainz mapping, as far as a wall needs it.
struct LBListensPayload: Decodable {
    let listens: [LBListen]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let payload = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("payload"))
        guard payload.contains(AnyKey("listens")) else {
            throw DecodingError.keyNotFound(AnyKey("listens"), .init(codingPath: [], debugDescription: "no listens"))
        }
        listens = payload.lenientArray(LBListen.self, AnyKey("listens"))
    }
}

struct LBListen: Decodable {
    let recordingID: MBID?
    let value: ListenBrainzReleaseGroup?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let meta = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("track_metadata"))
        let mapping = try? meta.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("mbid_mapping"))
        let info = try? meta.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("additional_info"))
        recordingID = MBID(validating: mapping?.lenientString(AnyKey("recording_mbid")) ?? info?.lenientString(AnyKey("recording_mbid")))
        let group = MBID(validating: mapping?.lenientString(AnyKey("release_group_mbid")) ?? info?.lenientString(AnyKey("release_group_mbid")))
        value = group.map { id in
            ListenBrainzReleaseGroup(
                releaseGroupID: id,
                title: meta.lenientString(AnyKey("release_name")) ?? "",
                artist: meta.lenientString(AnyKey("artist_name")) ?? "",
                releaseID: MBID(validating: mapping?.lenientString(AnyKey("release_mbid")) ?? info?.lenientString(AnyKey("release_mbid"))),
                caaID: mapping?.lenientInt(AnyKey("caa_id")).map(Int64.init),
                caaReleaseID: MBID(validating: mapping?.lenientString(AnyKey("caa_release_mbid"))),
                primaryType: nil, releaseDate: nil, listenCount: nil)
        }
    }
}

struct LBRecommendationPayload: Decodable {
    let recordings: [MBID]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let payload = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("payload"))
        guard payload.contains(AnyKey("mbids")) else {
            throw DecodingError.keyNotFound(AnyKey("mbids"), .init(codingPath: [], debugDescription: "no mbids"))
        }
        recordings = payload.lenientArray(LBRecommendation.self, AnyKey("mbids")).compactMap(\.id)
    }
}

struct LBRecommendation: Decodable {
    let id: MBID?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = MBID(validating: c.lenientString(AnyKey("recording_mbid")))
    }
}

/// `GET /metadata/recording/?recording_mbids=…&inc=artist release`: an object keyed by recording MBID.
struct LBRecordingMetadata: Decodable {
    let releases: [MBID: ListenBrainzReleaseGroup]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        var found: [MBID: ListenBrainzReleaseGroup] = [:]
        for key in c.allKeys {
            guard let recording = MBID(validating: key.stringValue),
                  let entry = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: key),
                  let release = try? entry.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("release")),
                  let group = MBID(validating: release.lenientString(AnyKey("release_group_mbid"))) else { continue }
            let artist = (try? entry.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("artist")))?.lenientString(AnyKey("name"))
            found[recording] = ListenBrainzReleaseGroup(
                releaseGroupID: group,
                title: release.lenientString(AnyKey("name")) ?? "",
                artist: release.lenientString(AnyKey("album_artist_name")) ?? artist ?? "",
                releaseID: MBID(validating: release.lenientString(AnyKey("mbid"))),
                caaID: release.lenientInt(AnyKey("caa_id")).map(Int64.init),
                caaReleaseID: MBID(validating: release.lenientString(AnyKey("caa_release_mbid"))),
                primaryType: nil, releaseDate: nil, listenCount: nil)
        }
        releases = found
    }
}

struct LBValidateToken: Decodable {
    let valid: Bool
    let user: String?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        valid = c.lenientBool(AnyKey("valid")) ?? false
        user = c.lenientString(AnyKey("user_name"))
    }
}
