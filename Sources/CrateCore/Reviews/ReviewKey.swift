import Foundation

/// The cache key of a review: normalised artist + title, so a rescan — or a scan of the deluxe
/// reissue — finds the review already written.
///
/// "Rumours (Super Deluxe Edition) [2013 Remaster]" and "Rumours" by "Fleetwood Mac" share the key
/// `fleetwood mac|rumours`.
public enum ReviewKey {
    /// Words that describe an edition, not the album.
    static let noise = #"super deluxe|deluxe|remastered|remaster|reissue|re-issue|expanded|anniversary|bonus tracks?|edition"#

    public static func make(artist: String, title: String) -> String {
        "\(fold(artist))|\(normaliseTitle(title))"
    }

    /// The title with edition noise removed, case- and accent-folded.
    public static func normaliseTitle(_ title: String) -> String {
        var text = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        // Bracketed groups that hold edition noise or only a year: "(Super Deluxe Edition)", "[2013]".
        text = replacing(#"[\(\[\{][^\)\]\}]*(\b(\#(noise))\b|^\s*\d{4}\s*$)[^\)\]\}]*[\)\]\}]"#, in: text)
        text = replacing(#"[\(\[\{]\s*\d{4}\s*[\)\]\}]"#, in: text)
        // A trailing " - 2009 Remaster" / ": 40th Anniversary Edition" segment.
        text = replacing(#"\s[-–—:/]\s[^-–—:/]*\b(\#(noise))\b[^-–—:/]*$"#, in: text)
        // Loose noise words, with an attached year or ordinal: "2013 Remaster", "40th Anniversary".
        text = replacing(#"(\b\d{1,4}(st|nd|rd|th)?\s+)?\b(\#(noise))\b(\s+\d{4}\b)?"#, in: text)
        let folded = fold(text)
        // A title that is all noise ("Deluxe") keeps its own words rather than an empty key.
        return folded.isEmpty ? fold(title) : folded
    }

    /// Case- and accent-folded, punctuation dropped, whitespace collapsed.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var scalars = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) || scalar == "&" {
                scalars.append(scalar)
            } else if scalar == "'" || scalar == "\u{2019}" {
                continue  // "Don't" and "Dont" are the same title.
            } else {
                scalars.append(" ")
            }
        }
        return String(scalars).split(separator: " ").joined(separator: " ")
    }

    private static func replacing(_ pattern: String, in text: String) -> String {
        text.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression, .caseInsensitive])
    }
}
