import Foundation

/// The review cache key as Crate wrote it before `MusicText` (it kept "&" and a leading "The"),
/// frozen: it is not a matcher, only the way to find reviews stored under it. The music-text
/// migration re-keys the reviews of the crate's albums; `ReviewService` falls back to it for a
/// review asked for by name (`crate review --artist … --title …`) of an album not in the crate.
enum LegacyReviewKey {
    static let noise = #"super deluxe|deluxe|remastered|remaster|reissue|re-issue|expanded|anniversary|bonus tracks?|edition"#

    static func make(artist: String, title: String) -> String {
        "\(fold(artist))|\(foldTitle(title))"
    }

    private static func foldTitle(_ title: String) -> String {
        var text = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        text = replacing(#"[\(\[\{][^\)\]\}]*(\b(\#(noise))\b|^\s*\d{4}\s*$)[^\)\]\}]*[\)\]\}]"#, in: text)
        text = replacing(#"[\(\[\{]\s*\d{4}\s*[\)\]\}]"#, in: text)
        text = replacing(#"\s[-–—:/]\s[^-–—:/]*\b(\#(noise))\b[^-–—:/]*$"#, in: text)
        text = replacing(#"(\b\d{1,4}(st|nd|rd|th)?\s+)?\b(\#(noise))\b(\s+\d{4}\b)?"#, in: text)
        let folded = fold(text)
        return folded.isEmpty ? fold(title) : folded
    }

    private static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var scalars = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) || scalar == "&" {
                scalars.append(scalar)
            } else if scalar != "'" && scalar != "\u{2019}" {
                scalars.append(" ")
            }
        }
        return String(scalars).split(separator: " ").joined(separator: " ")
    }

    private static func replacing(_ pattern: String, in text: String) -> String {
        text.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression, .caseInsensitive])
    }
}
