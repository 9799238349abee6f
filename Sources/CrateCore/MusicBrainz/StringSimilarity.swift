import Foundation

/// Normalised string comparison in the manner of beets and Picard: case, accents and punctuation
/// folded, "&" read as "and", a leading (or trailing ", The") article ignored; then a Levenshtein
/// ratio in 0...1.
public enum StringSimilarity {
    /// 1 = the same after normalisation, 0 = nothing in common.
    public static func similarity(_ a: String, _ b: String) -> Double {
        let x = Array(normalise(a)), y = Array(normalise(b))
        guard !x.isEmpty || !y.isEmpty else { return 1 }
        let longest = max(x.count, y.count)
        return 1 - Double(levenshtein(x, y)) / Double(longest)
    }

    /// "The Beatles" → "beatles"; "Beyoncé" → "beyonce"; "Simon & Garfunkel" → "simon and garfunkel".
    /// A name made only of punctuation ("!!!") is kept as it is, or it would match everything.
    public static func normalise(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var cleaned = ""
        for character in folded.replacingOccurrences(of: "&", with: " and ") {
            if character.isLetter || character.isNumber {
                cleaned.append(character)
            } else if character == "'" || character == "’" {
                continue  // "Don't" and "Dont" are the same word.
            } else {
                cleaned.append(" ")
            }
        }
        var words = cleaned.split(separator: " ").map(String.init)
        if words.count > 1, ["the", "a", "an"].contains(words[0]) { words.removeFirst() }
        if words.count > 1, words.last == "the" { words.removeLast() }
        let result = words.joined(separator: " ")
        return result.isEmpty ? folded.trimmingCharacters(in: .whitespaces) : result
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
