import CrateCore
import Foundation

/// A realistic Discogs collection and the MusicBrainz releases it matches, generated from a
/// seed: accents, "Various", Discogs' "(2)" namesakes, catalogue numbers with spaces, dashes and
/// slashes (spelled differently on MusicBrainz), multi-format "2×LP, Album, RE", copies owned
/// twice, catalogue numbers shared by two labels' releases, records MusicBrainz does not know,
/// and notes with commas, quotes and newlines.
public enum DiscogsImportFixtures {
    public struct Record: Sendable, Equatable {
        public var releaseID: Int
        public var artist: String
        public var title: String
        public var label: String
        /// Discogs' spelling; "none" when the release has none.
        public var catalogNumber: String
        public var format: String
        public var year: String
        public var copies: Int
        public var media: String
        public var sleeve: String
        public var notes: String
        /// nil: MusicBrainz does not know the release.
        public var mbid: String?
        public var groupID: String
        public var mbArtist: String
        public var mbCatalogNumber: String
    }

    public static let header = "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes"

    static let artists = ["Björk", "Sigur Rós", "Motörhead", "Françoise Hardy", "Caetano Veloso", "Ólafur Arnalds", "Mötley Crüe", "Zoë Keating",
                          "Fleetwood Mac", "Joni Mitchell", "Prince (2)", "Miles Davis", "John Coltrane", "Kraftwerk", "Can", "Neu!", "Talking Heads",
                          "Joy Division", "New Order", "Cocteau Twins", "Nina Simone", "Aphex Twin", "Boards Of Canada", "Stereolab", "Broadcast",
                          "Ennio Morricone", "Serge Gainsbourg", "Jorge Ben", "Os Mutantes", "Fela Kuti", "Tinariwen", "Ali Farka Touré", "Sun Ra",
                          "Alice Coltrane", "Pharoah Sanders", "Yellow Magic Orchestra", "Haruomi Hosono", "Tomita", "Múm", "Hüsker Dü", "Sunn O)))"]
    static let words = ["Blue", "Night", "Fields", "Electric", "Silence", "Summer", "River", "Glass", "Mirror", "Gold", "Dust", "Echo", "Garden",
                        "Ceremony", "Rumours", "Île", "Été", "Señor", "Fàbrica", "Heart", "Machine", "Sound", "Water", "Light", "Ghost", "Dream"]
    static let labels: [(name: String, prefix: String)] = [("Warner Bros. Records", "K"), ("Blue Note", "BST"), ("ECM Records", "ECM"),
                                                          ("Factory", "FACT"), ("Rough Trade", "ROUGH"), ("4AD", "CAD"), ("Warp Records", "WARP"),
                                                          ("Impulse!", "AS"), ("Polydor", "2383"), ("Philips", "6325"), ("Harvest", "SHVL"),
                                                          ("EMI", "CDP"), ("Sub Pop", "SP"), ("Mute", "STUMM"), ("Elektra", "EKS")]
    static let formats = ["LP, Album", "2×LP, Album, RE", "CD, Album", "LP, Album, RE, 180", "12\", EP", "Cassette, Album", "2×CD, Comp",
                          "LP, Comp, Mono", "3×LP, Album, Ltd"]
    static let conditions = ["Mint (M)", "Near Mint (NM or M-)", "Very Good Plus (VG+)", "Very Good (VG)", "Good Plus (G+)", ""]

    /// `count` records (rows: copies add rows), the same for the same seed.
    public static func collection(count: Int, seed: UInt64 = 28) -> [Record] {
        var random = SeededRandom(seed)
        var records: [Record] = []
        for n in 0..<count {
            let various = random.next(100) < 5
            let artist = various ? "Various" : artists[random.next(artists.count)]
            let title = "\(words[random.next(words.count)]) \(words[random.next(words.count)]) \(n)"
            let label = labels[random.next(labels.count)]
            let number = 10_000 + n
            let catno: String, mbCatno: String
            switch random.next(4) {
            case 0: catno = "\(label.prefix) \(number)"; mbCatno = "\(label.prefix)-\(number)"
            case 1: catno = "\(label.prefix)-\(number)"; mbCatno = "\(label.prefix) \(number)"
            case 2: catno = "\(label.prefix) \(number / 100) \(number % 100) 2"; mbCatno = "\(label.prefix)\(number / 100)\(number % 100)2"
            default: catno = "\(label.prefix) \(number)/\(number + 1)"; mbCatno = "\(label.prefix) \(number)/\(number + 1)"
            }
            let noCatno = random.next(100) < 3
            let unknown = random.next(100) < 2
            let releaseID = 1_000_000 + n * 7
            let notes: String
            switch random.next(6) {
            case 0: notes = "Bought at Rough Trade, \"first press\""
            case 1: notes = "Gatefold; inner sleeve\nsigned by the band"
            default: notes = ""
            }
            records.append(Record(releaseID: releaseID, artist: artist, title: title, label: label.name, catalogNumber: noCatno ? "none" : catno,
                                  format: formats[random.next(formats.count)], year: String(1960 + random.next(60)),
                                  copies: random.next(100) < 2 ? 2 : 1, media: conditions[random.next(conditions.count)],
                                  sleeve: conditions[random.next(conditions.count)], notes: notes,
                                  mbid: unknown ? nil : mbid(releaseID), groupID: mbid(releaseID + 3),
                                  mbArtist: various ? "Various Artists" : ArtistCredit.name(artist), mbCatalogNumber: mbCatno))
        }
        return records
    }

    /// The CSV Discogs exports for `records` (a copy owned twice is two rows).
    public static func csv(_ records: [Record]) -> String {
        var lines = [header]
        for record in records {
            for _ in 0..<record.copies {
                let fields = [record.catalogNumber, record.artist, record.title, record.label, record.format, String(record.releaseID % 6),
                              record.year, String(record.releaseID), "Uncategorized", "2019-03-14 10:22:31", record.media, record.sleeve, record.notes]
                lines.append(fields.map(quoted).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quoted(_ field: String) -> String {
        field.contains(",") || field.contains("\"") || field.contains("\n") ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    /// A deterministic MBID for a number.
    public static func mbid(_ n: Int) -> String {
        String(format: "%08x-0000-4000-8000-%012x", n, n)
    }

    /// The MusicBrainz search result shape for a record (and a second release sharing its
    /// catalogue number on another label, for every 50th).
    static func releases(for record: Record) -> [[String: Any]] {
        guard let mbid = record.mbid else { return [] }
        func release(id: String, title: String, artist: String, label: String) -> [String: Any] {
            var object: [String: Any] = [
                "id": id, "score": 100, "title": title, "status": "Official", "date": "\(record.year)-03-01", "country": "GB",
                "artist-credit": [["name": artist, "artist": ["id": mbid, "name": artist]]],
                "release-group": ["id": record.groupID, "primary-type": "Album", "secondary-types": artist == "Various Artists" ? ["Compilation"] : []],
                "media": [["format": record.format.contains("CD") ? "CD" : "12\" Vinyl", "track-count": 10]], "track-count": 10,
            ]
            if record.catalogNumber != "none" {
                object["label-info"] = [["catalog-number": record.mbCatalogNumber, "label": ["id": mbid, "name": label]]]
            }
            return object
        }
        var found = [release(id: mbid, title: record.title, artist: record.mbArtist, label: record.label)]
        if record.releaseID % 50 == 0 {
            found.append(release(id: Self.mbid(record.releaseID + 1), title: "Another Album", artist: "Somebody Else", label: "Other Label"))
        }
        return found
    }
}

/// A small seeded generator (SplitMix64): the same collection on every machine.
struct SeededRandom {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
