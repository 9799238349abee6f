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
    ] + Amounts.patterns

    /// Amounts of money in every order Crate has met them in: the amount before the currency
    /// ("300 €", "300$", "500 AUD", "1.500 kr", "300 Swiss francs", "forty bucks", "0.5 ETH") and
    /// after it ("$300", "USD 400", "CHF 20", "kr 1.500"). A currency is a symbol, an ISO code, a
    /// name or slang; an amount is digits (with `.`, `,`, `'` or spaces grouping, and an optional
    /// k/m/bn) or, before plural names and slang, number words ("forty bucks", "a million
    /// dollars"). Singular names after number words are left alone: "Billion Dollar Babies",
    /// "Million Dollar Quartet" and 50 Cent are music.
    enum Amounts {
        static let symbols = ["$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪", "₫", "฿", "₿", "₴", "₦", "₱", "¢", "₣", "₡", "₲", "₵", "₸"]
        /// ISO 4217 codes (and crypto tickers) that are not also English words ("ALL", "TOP",
        /// "CUP", "TRY", "MAD", "PEN", "COP", "SOL", "RUB", "ARS" are left out: next to a number
        /// they are track talk).
        static let codes = ["USD", "EUR", "GBP", "JPY", "AUD", "CAD", "CHF", "CNY", "RMB", "HKD", "NZD", "SEK", "NOK", "DKK",
                            "ISK", "PLN", "CZK", "HUF", "INR", "BRL", "MXN", "ZAR", "KRW", "SGD", "ILS", "THB", "TWD",
                            "CLP", "IDR", "MYR", "PHP", "VND", "UAH", "AED", "SAR", "NGN", "EGP", "KES",
                            "BTC", "XBT", "ETH", "LTC", "XRP", "DOGE", "USDT", "USDC", "XMR"]
        /// Written after a digit amount, singular or plural.
        static let names = ["dollars?", "euros?", "pounds?(\\s+sterling)?", "sterling", "yen", "francs?", "swiss\\s+francs?",
                            "kron(a|or|e|er|ur)", "kr\\.?", "rupees?", "yuan", "renminbi", "pesos?", "rubles?", "roubles?",
                            "rand", "z(l|ł)ot(y|ys|ych|e)", "forints?", "lira", "liras", "lire", "shekels?", "baht", "dirhams?",
                            "riyals?", "ringgit", "dinars?", "cents", "pence", "pennies", "bitcoins?", "btc",
                            "ether", "ethereum", "satoshis?", "sats", "dogecoins?", "crypto"]
        /// Slang, after digits or number words.
        static let slang = ["bucks?", "quid", "grand", "fivers?", "tenners?", "benjamins", "smackers", "clams"]
        /// Plural names and slang written after number words ("a yen for" and "a grand piano" are
        /// not money: "yen" is left out, and "grand" needs a number other than "a").
        static let pluralNames = ["dollars", "euros", "pounds", "francs", "kronor", "kroner", "rupees", "pesos", "rubles", "roubles",
                                  "cents", "pence", "bitcoins", "quid", "bucks", "fivers", "tenners", "benjamins"]
        static let numberWords = ["a", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                                  "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
                                  "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand",
                                  "million", "billion", "couple", "few", "several", "dozen"]
        /// Adjectives between an amount and a currency name ("300 Swiss francs", "40 US dollars").
        static let countries = "(?:(?:us|u\\.s\\.|american|australian|canadian|new\\s+zealand|hong\\s+kong|singapore|swiss|swedish|norwegian|danish|icelandic|mexican|indian|japanese|chinese|russian|brazilian|south\\s+african)\\s+)?"

        /// Digits grouped by `.`, `,`, `'` or a thin/normal space, with a decimal part and a k/m/bn.
        static let digits = "\\d+(?:[.,'\u{2009}\u{202F} ]\\d+)*(?:\\s?(?:k|m|bn|mn))?"

        static var patterns: [String] {
            let symbol = "(?:" + symbols.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
            let code = "(?:" + codes.joined(separator: "|") + ")"
            let name = "(?:" + names.joined(separator: "|") + ")"
            let slangWords = "(?:" + slang.joined(separator: "|") + ")"
            let words = "(?:" + numberWords.joined(separator: "|") + ")"
            let wordAmount = "\\b\(words)(?:[\\s-]+(?:and\\s+)?\(words))*"
            return [
                // Amount, then the currency: "300 €", "300$", "500 AUD", "1.500 kr", "300 Swiss francs", "20 quid".
                "(?<![\\w.])\(digits)\\s?\(symbol)",
                "(?<![\\w.])\(digits)\\s?\(code)\\b",
                "(?<![\\w.])\(digits)\\s?\(countries)\(name)(?![\\w])",
                "(?<![\\w.])\(digits)\\s?\(slangWords)(?![\\w])",
                // Number words, then plural names or slang: "forty bucks", "a few quid", "two million dollars".
                "\(wordAmount)(?:\\s+of)?\\s+\(countries)(?:" + pluralNames.joined(separator: "|") + ")\\b",
                // The currency, then the amount: "$300", "€ 20", "USD 400", "CHF 20", "kr 1.500".
                "\(symbol)\\s?\\d",
                "\\b\(code)\\s?\\d",
                "\\b(?:" + numberWords.dropFirst().joined(separator: "|") + ")[\\s-]+grand\\b",
                "\\b(?:kr|fr|sfr|rs|zł|zl)\\.?\\s?\\d",
            ]
        }
    }

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
