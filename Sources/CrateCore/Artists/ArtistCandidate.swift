import Foundation

/// One artist from a MusicBrainz artist search. Several may share a name ("Nirvana" the 1960s
/// British band and the Seattle one): they stay separate candidates, told apart by their
/// disambiguation, country, type and years, for the user to choose.
public struct ArtistCandidate: Equatable, Sendable, Codable {
    public let id: MBID
    public let name: String
    public let sortName: String?
    /// MusicBrainz's note that tells namesakes apart ("60s band from the UK").
    public let disambiguation: String?
    /// "Group", "Person", …
    public let type: String?
    public let country: String?
    /// Life-span begin and end as MusicBrainz wrote them ("1967", "1987-02").
    public let begin: String?
    public let end: String?
    /// MusicBrainz's search score, 0–100.
    public let score: Int

    public init(id: MBID, name: String, sortName: String? = nil, disambiguation: String? = nil, type: String? = nil,
                country: String? = nil, begin: String? = nil, end: String? = nil, score: Int) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.disambiguation = disambiguation
        self.type = type
        self.country = country
        self.begin = begin
        self.end = end
        self.score = score
    }

    /// "Group, GB, 1967–1969 (60s band from the UK)": what tells namesakes apart, for a list.
    public var details: String {
        var parts: [String] = []
        if let type { parts.append(type) }
        if let country { parts.append(country) }
        let years = [begin, end].map { $0.map { String($0.prefix(4)) } }
        switch (years[0], years[1]) {
        case let (from?, to?): parts.append("\(from)–\(to)")
        case let (from?, nil): parts.append("from \(from)")
        default: break
        }
        var text = parts.joined(separator: ", ")
        if let disambiguation, !disambiguation.isEmpty {
            text += text.isEmpty ? disambiguation : " (\(disambiguation))"
        }
        return text
    }
}

/// What a name search settles on.
public enum ArtistResolution: Equatable, Sendable {
    /// Exactly one artist has this name (or one clearly stands out): open it.
    case unique(ArtistCandidate)
    /// Several artists could be meant, best score first: the user chooses; they are never merged.
    case ambiguous([ArtistCandidate])

    /// Exactly one candidate carries the name asked for (as `MusicText.fold` compares names):
    /// that one. Several do: ambiguous, namesakes first. None does: ambiguous over whatever the
    /// search found, so a misspelling is offered its corrections rather than guessed.
    public static func resolve(name: String, candidates: [ArtistCandidate]) -> ArtistResolution? {
        guard !candidates.isEmpty else { return nil }
        let ranked = rank(candidates)
        let key = MusicText.fold(name)
        let namesakes = ranked.filter { MusicText.fold($0.name) == key || $0.sortName.map(MusicText.fold) == key }
        if namesakes.count == 1 { return .unique(namesakes[0]) }
        if namesakes.count > 1 { return .ambiguous(namesakes + ranked.filter { !namesakes.contains($0) }) }
        return .ambiguous(ranked)
    }

    /// Best score first; equal scores keep MusicBrainz's order.
    public static func rank(_ candidates: [ArtistCandidate]) -> [ArtistCandidate] {
        candidates.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
    }
}
