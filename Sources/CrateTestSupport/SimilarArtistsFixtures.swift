import Foundation

/// ListenBrainz labs' similar artists and the MusicBrainz searches the favourites' similar
/// artists need, in the real shapes. Namespaces: similar artists `0x70`, their albums `0x71`.
public enum SimilarArtistsFixtures {
    public static let artistNamespace = 0x70
    public static let albumNamespace = 0x71

    /// The number part of a fixture MBID.
    public static func number(_ mbid: String) -> Int { Int(mbid.suffix(12), radix: 16) ?? 0 }

    /// `GET /similar-artists/json?algorithm=…&artist_mbids=a,b`: for each seed, `perSeed`
    /// similar artists (the seed's number × 10 + k), a flat list as labs answers.
    public static func similarArtists(seeds: [String], perSeed: Int = 3) -> String {
        var items: [String] = []
        for seed in seeds {
            for k in 0..<perSeed {
                let n = number(seed) * 10 + k
                items.append(#"{"artist_mbid":"\#(ListenBrainzFixtures.mbid(artistNamespace, n))","name":"Similar \#(n)","comment":"","type":"Group","gender":null,"score":\#(1000 - k * 10 - number(seed)),"reference_mbid":"\#(seed)"}"#)
            }
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// `GET /ws/2/release-group?query=(arid:"a" OR arid:"b") AND primarytype:album`: two albums and
    /// one live album per artist named in the query.
    public static func albums(ofArtists artists: [String]) -> String {
        var items: [String] = []
        for artist in artists {
            for k in 0..<3 {
                let n = number(artist) * 10 + k
                let secondary = k == 2 ? #"["Live"]"# : "[]"
                items.append(#"{"id":"\#(ListenBrainzFixtures.mbid(albumNamespace, n))","score":100,"title":"Similar album \#(n)","primary-type":"Album","secondary-types":\#(secondary),"artist-credit":[{"name":"Similar \#(number(artist))","artist":{"id":"\#(artist)","name":"Similar \#(number(artist))"}}]}"#)
            }
        }
        return #"{"created":"2026-11-23T09:00:00.000Z","count":\#(items.count),"offset":0,"release-groups":[\#(items.joined(separator: ","))]}"#
    }

    /// `GET /ws/2/release-group?query=rgid:"a" OR rgid:"b"`: each group with artist `0xa0`-n.
    public static func releaseGroups(_ ids: [String]) -> String {
        let items = ids.map { id in
            #"{"id":"\#(id)","score":100,"title":"Favourite \#(number(id))","primary-type":"Album","secondary-types":[],"artist-credit":[{"name":"Artist \#(number(id))","artist":{"id":"\#(ListenBrainzFixtures.mbid(0xa0, number(id)))","name":"Artist \#(number(id))"}}]}"#
        }
        return #"{"created":"2026-11-23T09:00:00.000Z","count":\#(items.count),"offset":0,"release-groups":[\#(items.joined(separator: ","))]}"#
    }

    /// The MBIDs after each `field:"` in a Lucene query.
    public static func ids(_ field: String, in query: String) -> [String] {
        query.components(separatedBy: "\(field):\"").dropFirst().compactMap { part in
            part.split(separator: "\"").first.map(String.init)
        }
    }
}
