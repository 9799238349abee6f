import Foundation

/// One side of a record (or one medium when the numbers name no sides), in play order.
public struct RecordSide: Equatable, Sendable {
    /// "A", "B", … from vinyl positions ("A1", "B5"), else the disc number ("1", "2").
    public var name: String
    public var tracks: [Track]

    public init(name: String, tracks: [Track]) {
        self.name = name
        self.tracks = tracks
    }

    /// The album's sides: by the letters of MusicBrainz's vinyl positions when every track has
    /// one, else by medium. Order is the track list's (disc, position).
    public static func sides(of tracks: [Track]) -> [RecordSide] {
        let ordered = tracks.sorted { ($0.disc, $0.position) < ($1.disc, $1.position) }
        let letters = ordered.map { side(ofNumber: $0.number) }
        let byLetter = !ordered.isEmpty && letters.allSatisfy { $0 != nil }
        var sides: [RecordSide] = []
        for (track, letter) in zip(ordered, letters) {
            let name = byLetter ? letter! : String(track.disc)
            if sides.last?.name == name {
                sides[sides.count - 1].tracks.append(track)
            } else {
                sides.append(RecordSide(name: name, tracks: [track]))
            }
        }
        return sides
    }

    /// "A" for "A1", "AA" for "AA2", nil for "3" or nothing.
    static func side(ofNumber number: String?) -> String? {
        guard let number = number?.trimmingCharacters(in: .whitespaces).uppercased(), !number.isEmpty else { return nil }
        let letters = number.prefix { $0.isLetter && $0.isASCII }
        guard !letters.isEmpty else { return nil }
        return String(letters)
    }
}
