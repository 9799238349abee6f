import Foundation

/// The one way Crate compares music text: artist names, album and track titles from tags, folder
/// names, MusicBrainz, Discogs and a model's reading of a cover. Every matcher and key goes
/// through here, so an album that matches in one place matches in all of them.
public enum MusicText {
    static let posix = Locale(identifier: "en_US_POSIX")
    /// Articles that may lead a name ("The Beatles") or trail it after a comma ("Beatles, The").
    static let articles: Set<String> = ["the", "a", "an"]

    /// "The Beatles" → "beatles"; "Beatles, The" → "beatles"; "The The" → "the the"; "Beyoncé" → "beyonce";
    /// "Simon & Garfunkel" → "simon and garfunkel"; "ＹＭＯ" → "ymo"; "R.E.M." → "rem".
    /// Case, accents and width are folded, apostrophes dropped ("Don't" is "Dont"), "&" and a
    /// spaced "+" read as "and", other punctuation is a word break. A name made only of
    /// punctuation ("!!!") keeps its folded form, or it would match every other such name.
    public static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: posix)
        var words = splitWords(folded.contains("+") ? folded.replacingOccurrences(of: " + ", with: " and ") : folded)
        if words.count > 2, words[words.count - 2] == ",", articles.contains(words[words.count - 1]) {
            words.removeLast(2)  // "Beatles, The": beets' end words.
        }
        words.removeAll { $0 == "," }
        // "The The" stays whole: without its article it would be the band "The".
        if words.count > 1, articles.contains(words[0]), !words.dropFirst().allSatisfy(articles.contains) { words.removeFirst() }
        let result = words.joined(separator: " ")
        return result.isEmpty ? folded.split(whereSeparator: \.isWhitespace).joined(separator: " ") : result
    }

    /// 1 = the same after folding, 0 = nothing in common: a Levenshtein ratio, as beets' and
    /// Picard's matchers use.
    public static func similarity(_ a: String, _ b: String) -> Double {
        let x = Array(fold(a)), y = Array(fold(b))
        guard !x.isEmpty || !y.isEmpty else { return 1 }
        return 1 - Double(levenshtein(x, y)) / Double(max(x.count, y.count))
    }

    /// An album title without its edition noise, folded: "Abbey Road (Remastered 2009)" → "abbey road".
    public static func title(_ text: String) -> String {
        fold(EditionNoise.strip(text))
    }

    /// An artist credit's name, folded: "Prince (2)" → "prince", "Beatles, The" → "beatles",
    /// "Santana feat. Rob Thomas" → "santana".
    public static func artist(_ credit: String) -> String {
        fold(ArtistCredit.name(credit))
    }

    /// The key of an album: artist and title, each folded, joined by a separator no name has.
    /// Stored with every indexed music file, so a change here needs a migration that re-keys them.
    public static func albumKey(artist: String, title: String) -> String {
        self.artist(artist) + "\u{1F}" + self.title(title)
    }

    /// A track title as a reviewer writes it: bracketed parts ("(2004 Remaster)", "[Live]") and
    /// spaces do not count, so "Dont Stop" finds "Don't Stop (Remastered)".
    public static func trackTitle(_ text: String) -> String {
        let bare = text.contains(where: { $0 == "(" || $0 == "[" })
            ? text.replacingOccurrences(of: #"\([^)]*\)|\[[^\]]*\]"#, with: " ", options: .regularExpression) : text
        return fold(bare).replacingOccurrences(of: " ", with: "")
    }

    /// Letters, marks and digits as words; "," kept as a word of its own for the ", The" rule.
    /// Scalars, not characters: an album key is made for every file of the music folder.
    private static func splitWords(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var words: [String] = [], word = String.UnicodeScalarView()
        func flush() {
            if !word.isEmpty { words.append(String(word)) }
            word = String.UnicodeScalarView()
        }
        for (index, scalar) in scalars.enumerated() {
            if let spelled = transliterations[scalar] {
                word.append(contentsOf: spelled.unicodeScalars)
            } else if CharacterSet.alphanumerics.contains(scalar) {
                word.append(scalar)
            } else if scalar == "&" {
                flush()
                words.append("and")
            } else if apostrophes.contains(scalar) || (scalar == "." && joinsInitials(scalars, at: index)) {
                continue  // "Don't" is "Dont"; "R.E.M." is "REM".
            } else {
                flush()
                if scalar == "," { words.append(",") }
            }
        }
        flush()
        return words
    }

    static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{2018}", "`", "\u{2BC}"]

    /// Letters that folding leaves alone because they have no accent to drop, spelled as an
    /// English keyboard would: "Ágætis" is "Agaetis", "Mø" is "Mo".
    static let transliterations: [Unicode.Scalar: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "ß": "ss", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i",
    ]

    /// A dot between two single letters ("R.E.M.", "t.A.T.u.") joins them; "Sgt. Pepper" keeps its break.
    private static func joinsInitials(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        func isLetter(_ i: Int) -> Bool { i >= 0 && i < scalars.count && CharacterSet.letters.contains(scalars[i]) }
        func isWordCharacter(_ i: Int) -> Bool { i >= 0 && i < scalars.count && CharacterSet.alphanumerics.contains(scalars[i]) }
        let before = index - 1, after = index + 1
        return isLetter(before) && !isWordCharacter(before - 1) && isLetter(after) && !isWordCharacter(after + 1)
    }

    static func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
