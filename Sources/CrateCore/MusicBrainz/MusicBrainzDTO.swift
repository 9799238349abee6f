import Foundation

// The JSON shapes of MusicBrainz WS/2 (search and lookup share the release shape).
// Only `id` is required; every other field is optional and decoded leniently.

struct MBSearchResponse: Decodable {
    let count: Int?
    let releases: [MBRelease]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        count = c.lenientInt(AnyKey("count"))
        guard c.contains(AnyKey("releases")) else {
            throw DecodingError.keyNotFound(AnyKey("releases"), .init(codingPath: [], debugDescription: "no releases"))
        }
        releases = c.lenientArray(MBRelease.self, AnyKey("releases"))
    }
}

struct MBRelease: Decodable {
    let id: String
    let title: String?
    let status: String?
    let score: Int?
    let date: String?
    let country: String?
    let barcode: String?
    let packaging: String?
    let artistCredit: [MBArtistCredit]
    let releaseGroup: MBReleaseGroup?
    let labelInfo: [MBLabelInfo]
    let media: [MBMedium]
    let genres: [MBTag]
    let tags: [MBTag]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.decode(String.self, forKey: AnyKey("id"))
        title = c.lenientString(AnyKey("title"))
        status = c.lenientString(AnyKey("status"))
        score = c.lenientInt(AnyKey("score"))
        date = c.lenientString(AnyKey("date"))
        country = c.lenientString(AnyKey("country"))
        barcode = c.lenientString(AnyKey("barcode"))
        packaging = c.lenientString(AnyKey("packaging"))
        artistCredit = c.lenientArray(MBArtistCredit.self, AnyKey("artist-credit"))
        releaseGroup = c.lenient(MBReleaseGroup.self, AnyKey("release-group"))
        labelInfo = c.lenientArray(MBLabelInfo.self, AnyKey("label-info"))
        media = c.lenientArray(MBMedium.self, AnyKey("media"))
        genres = c.lenientArray(MBTag.self, AnyKey("genres"))
        tags = c.lenientArray(MBTag.self, AnyKey("tags"))
    }

    /// "Simon & Garfunkel", "Jay-Z feat. Alicia Keys": names joined with their joinphrases.
    var artistName: String {
        artistCredit.map { ($0.name ?? $0.artist?.name ?? "") + ($0.joinphrase ?? "") }.joined()
            .trimmingCharacters(in: .whitespaces)
    }

    /// "1977" from "1977", "1977-06-29" or "1977-06"; nil for "" or nonsense.
    var year: String? {
        guard let date, date.count >= 4 else { return nil }
        let prefix = String(date.prefix(4))
        return prefix.allSatisfy(\.isNumber) ? prefix : nil
    }
}

struct MBArtistCredit: Decodable {
    let name: String?
    let joinphrase: String?
    let artist: MBArtist?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        name = c.lenientString(AnyKey("name"))
        joinphrase = c.lenientString(AnyKey("joinphrase"))
        artist = c.lenient(MBArtist.self, AnyKey("artist"))
    }
}

struct MBArtist: Decodable {
    let id: String?
    let name: String?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = c.lenientString(AnyKey("id"))
        name = c.lenientString(AnyKey("name"))
    }
}

struct MBReleaseGroup: Decodable {
    let id: String?
    let title: String?
    let primaryType: String?
    let secondaryTypes: [String]
    let firstReleaseDate: String?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = c.lenientString(AnyKey("id"))
        title = c.lenientString(AnyKey("title"))
        primaryType = c.lenientString(AnyKey("primary-type"))
        secondaryTypes = c.lenientStrings(AnyKey("secondary-types"))
        firstReleaseDate = c.lenientString(AnyKey("first-release-date"))
    }
}

struct MBLabelInfo: Decodable {
    let catalogNumber: String?
    /// nil for MusicBrainz's placeholder "[no label]", which means there is none.
    let labelName: String?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        catalogNumber = c.lenientString(AnyKey("catalog-number"))
        let label = c.lenient(MBArtist.self, AnyKey("label"))
        labelName = PlaceholderLabel.isPlaceholder(name: label?.name, id: label?.id) ? nil : label?.name
    }
}

struct MBMedium: Decodable {
    let position: Int?
    let format: String?
    let title: String?
    /// The hidden track before track 1 ("track 0"), which plays first; data tracks
    /// (`data-tracks`, an enhanced CD's) are not read at all.
    let pregap: MBTrack?
    let tracks: [MBTrack]
    /// MusicBrainz's count of `tracks` (a lookup without `recordings` sends only this).
    let trackCount: Int?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        position = c.lenientInt(AnyKey("position"))
        format = c.lenientString(AnyKey("format"))
        title = c.lenientString(AnyKey("title")).flatMap { $0.isEmpty ? nil : $0 }
        pregap = c.lenient(MBTrack.self, AnyKey("pregap"))
        tracks = c.lenientArray(MBTrack.self, AnyKey("tracks"))
        trackCount = c.lenientInt(AnyKey("track-count"))
    }
}

struct MBTrack: Decodable {
    let id: String?
    let number: String?
    let position: Int?
    let title: String?
    let length: Int?
    let recordingID: String?
    let recordingTitle: String?
    let recordingLength: Int?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = c.lenientString(AnyKey("id"))
        number = c.lenientString(AnyKey("number"))
        position = c.lenientInt(AnyKey("position"))
        title = c.lenientString(AnyKey("title"))
        length = c.lenientInt(AnyKey("length"))
        let recording = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("recording"))
        recordingID = recording?.lenientString(AnyKey("id"))
        recordingTitle = recording?.lenientString(AnyKey("title"))
        recordingLength = recording?.lenientInt(AnyKey("length"))
    }
}

struct MBTag: Decodable {
    let name: String
    let count: Int?

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        name = try c.decode(String.self, forKey: AnyKey("name"))
        count = c.lenientInt(AnyKey("count"))
    }
}
