import Foundation

/// One release of an album's release group ("which pressing"): what "Not this pressing?" and
/// `crate pressings` list. Only what is printed on the record tells pressings apart — format,
/// country, year, label, catalogue number, barcode — never value, rarity or price.
public struct Pressing: Equatable, Sendable, Identifiable {
    public var releaseID: MBID
    /// The release's own title ("Rumours", "Rumours (Deluxe Edition)").
    public var title: String
    /// Format, country, date, labels, catalogue numbers, barcode, status, media with track counts
    /// (a browse sends no track lists: media carry MusicBrainz's counts).
    public var facts: ReleaseFacts

    public init(releaseID: MBID, title: String, facts: ReleaseFacts) {
        self.releaseID = releaseID
        self.title = title
        self.facts = facts
    }

    public var id: String { releaseID.rawValue }

    public var isOfficial: Bool { facts.isOfficial }

    /// What tells this pressing from the others (`ReleaseFacts.distinguishing`).
    public var distinguishing: String? { facts.distinguishing }

    /// Official releases first, then by date (undated last; "1977" before "1977-02-04", the same
    /// year told less precisely), then by country (unknown last); ties keep MusicBrainz's order.
    public static func ordered(_ pressings: [Pressing]) -> [Pressing] {
        pressings.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.isOfficial != y.isOfficial { return x.isOfficial }
            if let order = compareMissingLast(x.facts.date, y.facts.date) { return order }
            if let order = compareMissingLast(x.facts.country, y.facts.country) { return order }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// nil when equal (the next key decides).
    private static func compareMissingLast(_ a: String?, _ b: String?) -> Bool? {
        switch (a, b) {
        case (nil, nil): return nil
        case (nil, _): return false
        case (_, nil): return true
        case let (a?, b?): return a == b ? nil : a < b
        }
    }
}

extension ReleaseFacts {
    /// Whether MusicBrainz calls the release official (not a promotion, bootleg or pseudo-release).
    public var isOfficial: Bool { status?.caseInsensitiveCompare("Official") == .orderedSame }

    /// One line of what tells this release from the other pressings of its album:
    /// `12" Vinyl · GB · 1977 · Warner Bros. Records · K 56344 · 075992731310`. A status other
    /// than Official ends it ("Promotion"), since that is printed on the sleeve too. Parts
    /// MusicBrainz does not know are left out; nil when it knows none.
    public var distinguishing: String? {
        var parts: [String] = []
        if let formatSummary { parts.append(formatSummary) }
        if let country { parts.append(country) }
        if let when = year ?? date { parts.append(when) }
        if !labels.isEmpty { parts.append(labels.joined(separator: ", ")) }
        if !catalogNumbers.isEmpty { parts.append(catalogNumbers.joined(separator: ", ")) }
        if let barcode { parts.append(barcode) }
        if let status, !isOfficial { parts.append(status) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
