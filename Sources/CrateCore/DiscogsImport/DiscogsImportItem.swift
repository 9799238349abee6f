import Foundation

/// Which Discogs list a record came from: the collection (owned) or the wantlist (wanted).
public enum DiscogsList: String, Codable, Sendable, CaseIterable {
    case collection
    case wantlist
}

/// One Discogs record to import, as read from the CSV export or the API, before it is matched.
///
/// Only music and the user's own words are kept (docs/decisions/0005-music-never-money.md):
/// conditions, rating, folder and notes become the copy's note; no price, value or
/// marketplace field is ever read.
public struct DiscogsImportItem: Equatable, Sendable {
    public var list: DiscogsList
    public var releaseID: Int
    /// Which copy of this release this is (1, 2, …): the n-th row of the release in the CSV, or
    /// the n-th instance by instance id from the API. With `list` and `releaseID` it is the
    /// idempotence key (docs/decisions/0045-discogs-import.md).
    public var copyIndex: Int
    public var artist: String
    public var title: String
    public var label: String?
    public var catalogNumber: String?
    /// As Discogs writes it: "2×LP, Album, RE", "CD, Album".
    public var format: String?
    public var year: String?
    /// Neither the CSV export nor the API's collection pages carry one; kept for sources that do.
    public var barcode: String?
    public var note: String?
    public var addedAt: Date?

    public init(list: DiscogsList, releaseID: Int, copyIndex: Int = 1, artist: String, title: String, label: String? = nil,
                catalogNumber: String? = nil, format: String? = nil, year: String? = nil, barcode: String? = nil,
                note: String? = nil, addedAt: Date? = nil) {
        self.list = list
        self.releaseID = releaseID
        self.copyIndex = copyIndex
        self.artist = artist
        self.title = title
        self.label = label
        self.catalogNumber = catalogNumber
        self.format = format
        self.year = year
        self.barcode = barcode
        self.note = note
        self.addedAt = addedAt
    }

    /// The user's own words about a copy, in one note: "Media: Very Good Plus (VG+) · Sleeve:
    /// Near Mint (NM or M-) · Rating: 4/5 · Folder: Jazz · first press". Empty parts are left out.
    public static func note(media: String?, sleeve: String?, rating: String?, folder: String?, notes: String?) -> String? {
        func clean(_ text: String?) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            return text
        }
        var parts: [String] = []
        if let media = clean(media) { parts.append("Media: \(media)") }
        if let sleeve = clean(sleeve) { parts.append("Sleeve: \(sleeve)") }
        if let rating = clean(rating), let stars = Int(rating), stars > 0 { parts.append("Rating: \(min(stars, 5))/5") }
        if let folder = clean(folder), folder != "Uncategorized", folder != "All" { parts.append("Folder: \(folder)") }
        if let notes = clean(notes) { parts.append(notes) }
        return parts.isEmpty ? nil : String(parts.joined(separator: " · ").prefix(500))
    }

    /// "1977" from "1977", "1977-06-00" or "1977-06-29"; nil for "", "0" or nonsense.
    public static func year(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), text.count >= 4 else { return nil }
        let prefix = String(text.prefix(4))
        guard prefix.allSatisfy(\.isASCII), let value = Int(prefix), value >= 1800 else { return nil }
        return prefix
    }

    /// The first of a "K 56344, K4 56344" list; nil for Discogs' "none".
    public static func firstCatalogNumber(_ text: String?) -> String? {
        guard let first = text?.components(separatedBy: ", ").first?.trimmingCharacters(in: .whitespaces),
              CatalogueNumber.key(first) != nil else { return nil }
        return first
    }

    /// Discogs' "Prince (2)" and "Beatles, The" as a name; its "Various" as MusicBrainz's
    /// "Various Artists".
    var searchArtist: String {
        ArtistCredit.isVarious(artist) ? "Various Artists" : ArtistCredit.name(artist)
    }

    /// The first label of a "Label A, Label B" list.
    var firstLabel: String? {
        label?.components(separatedBy: ", ").first.map { ArtistCredit.name($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
