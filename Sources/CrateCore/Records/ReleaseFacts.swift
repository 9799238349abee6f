import Foundation

/// What tells one release of an album from another: the facts printed on the record, as
/// MusicBrainz lists them. Shown plainly, for identification and the collection; nothing here
/// is (or may become) about value.
public struct ReleaseFacts: Equatable, Sendable, Codable {
    /// The release these facts describe (the album's release when they were stored).
    public var releaseID: String?
    /// As MusicBrainz has it ("5099902943527", or a 12-digit UPC); nil when the release has none.
    public var barcode: String?
    /// Every catalogue number, in MusicBrainz's order, without repeats.
    public var catalogNumbers: [String]
    /// Every label, in order, without repeats; placeholders such as "[no label]" are left out.
    public var labels: [String]
    public var country: String?
    public var date: String?
    public var packaging: String?
    public var status: String?
    public var media: [ReleaseMedium]

    public init(releaseID: String? = nil, barcode: String? = nil, catalogNumbers: [String] = [], labels: [String] = [],
                country: String? = nil, date: String? = nil, packaging: String? = nil, status: String? = nil,
                media: [ReleaseMedium] = []) {
        self.releaseID = releaseID
        self.barcode = barcode
        self.catalogNumbers = catalogNumbers
        self.labels = labels
        self.country = country
        self.date = date
        self.packaging = packaging
        self.status = status
        self.media = media
    }

    /// "12\" Vinyl" for one disc, "2×CD" for two of a kind, "CD + DVD-Video" for a mix; nil when
    /// MusicBrainz names no format.
    public var formatSummary: String? {
        var counts: [(format: String, count: Int)] = []
        for medium in media {
            guard let format = medium.format else { continue }
            if let index = counts.firstIndex(where: { $0.format == format }) { counts[index].count += 1 }
            else { counts.append((format, 1)) }
        }
        guard !counts.isEmpty else { return nil }
        return counts.map { $0.count > 1 ? "\($0.count)×\($0.format)" : $0.format }.joined(separator: " + ")
    }

    /// The year part of `date`.
    public var year: String? {
        guard let date, date.count >= 4 else { return nil }
        let prefix = String(date.prefix(4))
        return prefix.allSatisfy(\.isNumber) ? prefix : nil
    }
}

/// One disc, side pair, tape or file set of a release.
public struct ReleaseMedium: Equatable, Sendable, Codable {
    public var position: Int
    /// "12\" Vinyl", "CD", "Cassette", "Digital Media"; nil when MusicBrainz does not say.
    public var format: String?
    /// "The Original Album", "Bonus Disc"; nil for most.
    public var title: String?
    /// Audio tracks, a hidden pregap track included; data tracks are not counted.
    public var trackCount: Int

    public init(position: Int, format: String?, title: String?, trackCount: Int) {
        self.position = position
        self.format = format
        self.title = title
        self.trackCount = trackCount
    }

    /// Video media (DVD-Video, Blu-ray, VHS …) are listed with the release but never played.
    public var isVideo: Bool { Self.isVideoFormat(format) }

    static func isVideoFormat(_ format: String?) -> Bool {
        guard let format = format?.lowercased() else { return false }
        return videoFormats.contains(format)
    }

    /// MusicBrainz's video formats (its medium format list, the "video" ones).
    private static let videoFormats: Set<String> = [
        "dvd", "dvd-video", "dvd-r video", "blu-ray", "blu-ray-r", "hd-dvd", "vhs", "vcd", "svcd", "betamax",
        "laserdisc", "ced", "umd",
    ]
}

/// MusicBrainz's placeholder labels, which mean "no label".
enum PlaceholderLabel {
    /// `[no label]`, MusicBrainz's special label for self-released records.
    static let noLabelID = "157afde4-4bf5-4039-8ad2-5a15acc85176"

    static func isPlaceholder(name: String?, id: String?) -> Bool {
        if id?.lowercased() == noLabelID { return true }
        guard let name = name?.trimmingCharacters(in: .whitespaces) else { return true }
        return name.isEmpty || name.lowercased() == "[no label]"
    }
}
