import Foundation

/// Finds money talk — prices, market value, investment, rarity, pressings, collectibility, amounts
/// of money — which Crate never shows (docs/decisions/0005-music-never-money.md).
public enum MoneyFilter {
    /// Whole-word patterns, matched case-insensitively.
    static let patterns: [String] = [
        #"\bpric(e|es|ed|ing|ey)\b"#,
        #"\b(market|resale|monetary|collector'?s?|cash|dollar)\s+value\b"#,
        #"\bworth\s+(a\s+lot|money|a\s+fortune|thousands|hundreds)\b"#,
        #"\binvest(ment|ments|ing|or|ors|ed)?\b"#,
        #"\brarity\b"#,
        #"\brare\s+(pressing|pressings|copy|copies|vinyl|edition|first\s+press(ing)?)\b"#,
        #"\bpressings?\b"#,
        #"\bcollectib(le|les|ility)\b|\bcollectab(le|les|ility)\b"#,
        #"\bcollector'?s'?\s+(item|piece|market)\b"#,
        #"\b(resale|resell|auction|auctions|auctioned|marketplace)\b"#,
        #"\b(sells?|sold|selling|fetch(es|ed)?|go(es)?)\s+for\s+(over\s+|up\s+to\s+|around\s+|about\s+)?[$€£¥]"#,
        #"[$€£¥]\s?\d"#,
        #"\b\d[\d,.]*\s?(dollars|euros|pounds|usd|eur|gbp|bucks)\b"#,
    ]

    private static let expressions: [NSRegularExpression] = patterns.compactMap {
        try? NSRegularExpression(pattern: $0, options: [.caseInsensitive])
    }

    /// True when `text` talks about money.
    public static func flags(_ text: String) -> Bool {
        let range = NSRange(text.startIndex..., in: text)
        return expressions.contains { $0.firstMatch(in: text, range: range) != nil }
    }

    /// Whether any field of a draft the user will read talks about money: the summary, the
    /// bullets and the key tracks too — a model can slip a price into a track's note ("Myth ($20
    /// single)"). The rating and the recommendation label are checked by the parser already.
    public static func flags(_ draft: ReviewDraft) -> Bool {
        flags(draft.summary) || draft.bullets.contains(where: flags) || draft.keyTracks.contains(where: flags)
    }

    /// The reminder appended to the user message when a draft has to be regenerated.
    public static let reminder = """
        Your previous answer mentioned money, prices, value, rarity, pressings or collectibility. \
        Crate never does. Write the review again about the music only, with none of that, and answer \
        with the JSON object only.
        """
}
