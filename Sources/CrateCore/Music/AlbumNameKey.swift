import Foundation

/// Normalised album artist + title, so "The Beatles — Abbey Road (2019 Remaster)" and
/// "beatles / abbey road" meet: case and diacritics folded, "&" read as "and", punctuation
/// dropped, a leading article ("the", "a", "an") dropped, and edition suffixes such as
/// "(Deluxe Edition)", "[Remastered]" or " - 25th Anniversary Edition" removed.
public enum AlbumNameKey {
    /// Words that mark a bracketed or dashed suffix as an edition, not part of the title.
    static let editionWords = ["deluxe", "edition", "remaster", "remastered", "expanded", "anniversary", "bonus", "special",
                               "collector", "version", "reissue", "mono", "stereo", "legacy", "super", "limited", "disc", "cd"]
    static let articles = ["the ", "a ", "an "]

    /// The key of an album: artist and title, each normalised, joined by a separator no name has.
    public static func key(artist: String, title: String) -> String {
        normalise(artist) + "\u{1F}" + normalise(stripEdition(title))
    }

    /// Case, diacritics, punctuation and a leading article removed; whitespace collapsed.
    public static func normalise(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "&", with: " and ")
        var cleaned = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                cleaned.append(scalar)
            } else if CharacterSet.whitespacesAndNewlines.contains(scalar) || CharacterSet.punctuationCharacters.contains(scalar)
                        || CharacterSet.symbols.contains(scalar) {
                // "AC/DC" and "ac dc" both become "ac dc"; apostrophes join ("Don't" → "dont").
                if scalar == "'" || scalar == "’" { continue }
                cleaned.append(" ")
            }
        }
        var words = String(cleaned).split(separator: " ").map(String.init)
        if words.count > 1, let first = words.first, articles.contains(first + " ") {
            words.removeFirst()
        }
        return words.joined(separator: " ")
    }

    /// Removes trailing "(…Edition)", "[Remastered 2009]" and " - Deluxe Version" suffixes.
    public static func stripEdition(_ title: String) -> String {
        var result = title.trimmingCharacters(in: .whitespaces)
        while true {
            let before = result
            for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] where result.hasSuffix(close) {
                if let start = result.range(of: open, options: .backwards) {
                    let inside = String(result[start.upperBound..<result.index(before: result.endIndex)])
                    if isEdition(inside), start.lowerBound > result.startIndex {
                        result = String(result[..<start.lowerBound]).trimmingCharacters(in: .whitespaces)
                    }
                }
            }
            for dash in [" - ", " – ", " — ", ": "] {
                if let range = result.range(of: dash, options: .backwards), isEdition(String(result[range.upperBound...])),
                   range.lowerBound > result.startIndex {
                    result = String(result[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
                }
            }
            if result == before { return result }
        }
    }

    static func isEdition(_ text: String) -> Bool {
        let words = normalise(text).split(separator: " ").map(String.init)
        return words.contains { editionWords.contains($0) }
    }
}
