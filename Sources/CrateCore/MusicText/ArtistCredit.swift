import Foundation

/// Artist credits as MusicBrainz, Discogs and tags write them: "Various Artists", join phrases
/// ("feat.", "&", " x "), Discogs' "(2)" namesake suffixes and its "Beatles, The" inversion.
public enum ArtistCredit {
    /// Folded names that mean a compilation of many artists, not an artist.
    static let variousNames: Set<String> = ["various artists", "various", "va", "v a", "various artist", "artistes divers", "verschiedene interpreten"]
    /// Join phrases that end the main artist and start a guest: "Santana feat. Rob Thomas".
    static let featuring = #"\s+[\(\[]?(feat\.?|featuring|ft\.?)\s.*$"#
    /// Join phrases between artists of equal standing. "&" and "and" also join the words of one
    /// band's name ("Simon & Garfunkel"), so `names` splits on them only when asked.
    static let joins = [" feat. ", " feat ", " featuring ", " ft. ", " ft ", " x ", " × ", " vs. ", " vs "]
    static let andJoins = [" & ", " and ", " + "]

    /// Whether the credit is "Various Artists" (or "VA", "Various", "V.A.").
    public static func isVarious(_ credit: String) -> Bool {
        variousNames.contains(MusicText.fold(credit))
    }

    /// The main artist's name as written: a Discogs suffix dropped ("Prince (2)" → "Prince"), an
    /// inversion put back ("Beatles, The" → "The Beatles"), a featured guest dropped.
    public static func name(_ credit: String) -> String {
        var text = credit.trimmingCharacters(in: .whitespacesAndNewlines)
        // The checks before each pattern keep the common name (neither) free of regex work: an
        // album key is made for every file of the music folder.
        if text.hasSuffix(")") {
            text = text.replacingOccurrences(of: #"\s+\(\d+\)$"#, with: "", options: .regularExpression)
        }
        let lower = text.lowercased()
        if lower.contains(" feat") || lower.contains(" ft") || lower.contains("(feat") || lower.contains("[feat") {
            let withoutGuest = text.replacingOccurrences(of: featuring, with: "", options: [.regularExpression, .caseInsensitive])
            if !withoutGuest.isEmpty { text = withoutGuest }
        }
        for article in ["The", "A", "An"] {
            let suffix = ", " + article
            if text.count > suffix.count, text.lowercased().hasSuffix(suffix.lowercased()) {
                text = article + " " + text.dropLast(suffix.count)
            }
        }
        return text
    }

    /// Each artist of a credit, each by `name`: "Jay-Z & Kanye West" with `splittingAnd` gives both.
    public static func names(_ credit: String, splittingAnd: Bool = false) -> [String] {
        var parts = [credit]
        for join in joins + (splittingAnd ? andJoins : []) {
            parts = parts.flatMap { split($0, on: join) }
        }
        return parts.map { name($0) }.filter { !$0.isEmpty }
    }

    private static func split(_ text: String, on join: String) -> [String] {
        var parts: [String] = [], rest = Substring(text)
        while let range = rest.range(of: join, options: .caseInsensitive) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return parts + [String(rest)]
    }
}
