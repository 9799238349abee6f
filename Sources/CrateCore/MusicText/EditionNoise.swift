import Foundation

/// The one table of edition noise: what a release adds to an album's title that does not make it
/// another album. "Abbey Road (Remastered 2009)", "Nevermind [Deluxe Edition]", "Rumours - 35th
/// Anniversary Edition" and "Rumours 2013 Remaster" are all the album "Rumours" or "Abbey Road".
public enum EditionNoise {
    /// Words that make a trailing bracketed or dashed group an edition. Not "version" alone:
    /// "Fearless (Taylor's Version)" is a re-recording, another album.
    static let words: Set<String> = [
        "deluxe", "edition", "remaster", "remastered", "remasters", "expanded", "anniversary", "bonus", "special",
        "collector", "collectors", "reissue", "reissued", "mono", "stereo", "legacy", "super", "limited", "disc", "cd",
    ]
    /// Words that mark an edition even without brackets at the end of a title ("Rumours 2013
    /// Remaster"); "Mono", "Special" or "Anniversary" alone end real titles.
    static let bareWords: Set<String> = ["remaster", "remastered", "deluxe", "edition", "expanded", "reissue"]
    /// Separators before a trailing edition segment: "Bookends - Remastered", "Rumours: Deluxe".
    static let dashes = [" - ", " – ", " — ", ": "]
    static let dashScalars: Set<Unicode.Scalar> = ["-", "–", "—", ":"]
    static let brackets: [(open: String, close: String)] = [("(", ")"), ("[", "]"), ("{", "}")]

    /// The title with its trailing edition groups removed, repeatedly; a title that is only noise
    /// ("(Deluxe)", "Deluxe Edition") is kept whole.
    public static func strip(_ title: String) -> String {
        var result = title.trimmingCharacters(in: .whitespaces)
        while true {
            let before = result
            for (open, close) in brackets where result.hasSuffix(close) {
                if let start = result.range(of: open, options: .backwards), start.lowerBound > result.startIndex {
                    let inside = String(result[start.upperBound..<result.index(before: result.endIndex)])
                    // A year alone counts only in brackets: "Prince - 1999" is an album's name.
                    if isEdition(inside) || isYear(inside.trimmingCharacters(in: .whitespaces)) {
                        result = trimmed(result[..<start.lowerBound])
                    }
                }
            }
            for dash in dashes where result.unicodeScalars.contains(where: dashScalars.contains) {
                if let range = result.range(of: dash, options: .backwards), range.lowerBound > result.startIndex,
                   isEdition(String(result[range.upperBound...])) {
                    result = trimmed(result[..<range.lowerBound])
                }
            }
            result = stripBareTail(result)
            if result == before { return result }
        }
    }

    /// Whether a bracketed or dashed group names an edition ("2009 Remaster", "Super Deluxe").
    public static func isEdition(_ text: String) -> Bool {
        let words = MusicText.fold(text).split(separator: " ").map(String.init)
        return words.contains { self.words.contains($0) } || zip(words, words.dropFirst()).contains { $0 == "re" && $1 == "issue" }
    }

    /// "Rumours 2013 Remaster" → "Rumours": a tail of edition words, years and ordinals that holds
    /// one of `bareWords` and leaves a title behind.
    static func stripBareTail(_ title: String) -> String {
        // Most titles end in a word that is no noise: say so before folding anything.
        let last = title.lowercased().split(separator: " ").last.map { $0.filter { $0.isLetter || $0.isNumber } } ?? ""
        guard words.contains(last) || isYear(last) || isOrdinal(last) else { return title }
        let tokens = title.split(separator: " ", omittingEmptySubsequences: true)
        func isNoise(_ token: Substring) -> Bool {
            let word = MusicText.fold(String(token))
            return words.contains(word) || isYear(word) || isOrdinal(word)
        }
        var cut = tokens.count
        while cut > 0, isNoise(tokens[cut - 1]) { cut -= 1 }
        let tail = tokens[cut...].map { MusicText.fold(String($0)) }
        let rest = tokens[..<cut].joined(separator: " ")
        guard cut > 0, tail.contains(where: bareWords.contains), !MusicText.articles.contains(MusicText.fold(rest)) else { return title }
        return rest.trimmingCharacters(in: CharacterSet(charactersIn: " -–—:,"))
    }

    static func isYear(_ word: String) -> Bool {
        word.count == 4 && (word.hasPrefix("19") || word.hasPrefix("20")) && word.allSatisfy(\.isNumber)
    }

    static func isOrdinal(_ word: String) -> Bool {
        ["st", "nd", "rd", "th"].contains { word.hasSuffix($0) && word.dropLast(2).allSatisfy(\.isNumber) && word.count > 2 }
    }

    private static func trimmed(_ text: Substring) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }
}
