import Foundation

/// Builds MusicBrainz search queries (Lucene syntax) from untrusted text.
public enum LuceneQuery {
    /// Characters with a meaning in Lucene outside quotes (`&&`/`||` are covered by `&`/`|`).
    static let specialCharacters: Set<Character> = ["+", "-", "&", "|", "!", "(", ")", "{", "}", "[", "]", "^", "\"", "~", "*", "?", ":", "\\", "/"]

    /// Escapes a bare term: "AC/DC" → `AC\/DC`.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if specialCharacters.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A release by barcode: the printed digits or their UPC-A/EAN-13 twin (digits only, so
    /// nothing in it needs escaping).
    public static func barcode(_ barcode: Barcode) -> String {
        let forms = barcode.searchForms
        return forms.count == 1 ? "barcode:\(forms[0])" : "(" + forms.map { "barcode:\($0)" }.joined(separator: " OR ") + ")"
    }

    /// A quoted phrase; inside quotes only `"` and `\` need escaping: `Sunn O)))` → `"Sunn O)))"`.
    public static func phrase(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    /// One MusicBrainz tag or genre, as a quoted term with every special character escaped:
    /// `drum & bass` → `tag:"drum \& bass"`, `post-rock` → `tag:"post\-rock"`. The quotes keep
    /// the words together; the escapes keep `&&`, `-`, `/` and `"` from being read as syntax by
    /// a parser that looks inside phrases (Lucene drops the backslashes again).
    public static func tag(_ name: String) -> String {
        "tag:\"" + escape(clean(name)) + "\""
    }

    /// Any of the tags: `(tag:"r\&b" OR tag:"soul")`; one tag needs no parentheses.
    public static func anyTag(_ names: [String]) -> String {
        let terms = names.map(clean).filter { !$0.isEmpty }.map(tag)
        switch terms.count {
        case 0: return ""
        case 1: return terms[0]
        default: return "(" + terms.joined(separator: " OR ") + ")"
        }
    }

    /// An artist by name, as a phrase: `artist:"Sunn O)))"`.
    public static func artist(_ name: String) -> String {
        "artist:\(phrase(clean(name)))"
    }

    /// `release:"Rumours" AND artist:"Fleetwood Mac"`.
    public static func exactRelease(title: String, artist: String?) -> String {
        var parts = ["release:\(phrase(clean(title)))"]
        if let artist = artist.map(clean), !artist.isEmpty { parts.append("artist:\(phrase(artist))") }
        return parts.joined(separator: " AND ")
    }

    /// Every word fuzzy-matched: `release:(rumors~) AND artist:(fleetwod~ mac~)`. Terms that are all
    /// punctuation ("!!!") are kept, escaped, since for some artists they are the whole name.
    public static func fuzzyRelease(title: String, artist: String?) -> String {
        var parts: [String] = []
        if let group = fuzzyGroup(title) { parts.append("release:\(group)") }
        if let artist, let group = fuzzyGroup(artist) { parts.append("artist:\(group)") }
        return parts.joined(separator: " AND ")
    }

    private static func fuzzyGroup(_ text: String) -> String? {
        let words = clean(text).split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return nil }
        return "(" + words.map { escape(String($0)) + "~" }.joined(separator: " ") + ")"
    }

    /// A release by catalogue number, with the label when one was read:
    /// `catno:"K 56344" AND label:"Warner Bros."` (`catno` ignores case, spaces and separators).
    public static func catalogNumber(_ number: String, label: String?) -> String {
        var parts = ["catno:\(phrase(clean(number)))"]
        if let label = label.map(clean), !label.isEmpty { parts.append("label:\(phrase(label))") }
        return parts.joined(separator: " AND ")
    }

    /// A recording search for tracks read on a sleeve, any of them by the artist:
    /// `recording:"Blue Monday" AND artist:"New Order"`, or
    /// `(recording:"A" OR recording:"B") AND artist:"…"`. Empty when no title is left.
    public static func recordings(titles: [String], artist: String?) -> String {
        var seen = Set<String>()
        let terms = titles.map(clean).filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }.map { "recording:\(phrase($0))" }
        guard !terms.isEmpty else { return "" }
        var query = terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
        if let artist = artist.map(clean), !artist.isEmpty { query += " AND artist:\(phrase(artist))" }
        return query
    }

    /// Control characters and runs of whitespace say nothing to a search engine.
    static func clean(_ text: String) -> String {
        text.unicodeScalars
            .map { CharacterSet.controlCharacters.contains($0) ? " " : String($0) }
            .joined()
            .split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
    }
}
