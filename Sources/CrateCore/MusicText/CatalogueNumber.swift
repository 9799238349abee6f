import Foundation

/// Catalogue numbers as labels print them and Discogs stores them: "CDP 7 46200 2",
/// "CDP-7-46200-2" and "cdp7462002" are one number.
public enum CatalogueNumber {
    /// Upper case, full-width folded, spaces, dashes, dots and slashes dropped; nil for an empty
    /// number, Discogs' "none" or MusicBrainz's "[none]".
    public static func key(_ text: String) -> String? {
        let folded = text.folding(options: [.widthInsensitive, .diacriticInsensitive], locale: MusicText.posix).uppercased()
        let kept = folded.filter { !$0.isWhitespace && !separators.contains($0) }
        return kept.isEmpty || kept == "NONE" || kept == "[NONE]" ? nil : kept
    }

    /// Whether two printed numbers are the same catalogue number.
    public static func same(_ a: String, _ b: String) -> Bool {
        guard let x = key(a) else { return false }
        return x == key(b)
    }

    static let separators: Set<Character> = ["-", "‐", "‑", "–", "—", ".", "/", "_", "·"]
}
