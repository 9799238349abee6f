import Foundation
import Testing
@testable import CrateCore

/// Bug: prices slipped through the money filter — "300 €", "300$", "USD 400", "500 AUD",
/// "5000 JPY", "1.500 kr", "300 Swiss francs", "20 quid", "forty bucks", "0.01 BTC", "0.5 ETH".
/// The filter knew only a symbol before digits and six words after them. The table below is
/// generated: every amount form with every currency form, in both orders, inside a sentence.
@Suite("Money filter: forms of money")
struct MoneyFormsTests {
    static let reported = [
        "300 €", "300$", "USD 400", "500 AUD", "5000 JPY", "1.500 kr", "300 Swiss francs", "20 quid", "forty bucks",
        "0.01 BTC", "0.5 ETH",
    ]
    static let digitAmounts = ["300", "20", "0.01", "1.500", "1,500", "1 500", "12'000", "5k", "2.5m", "99.99"]
    static let wordAmounts = ["forty", "a few", "twenty-five", "a million", "two hundred", "a couple of", "several"]
    static let symbols = MoneyFilter.Amounts.symbols
    static let codes = MoneyFilter.Amounts.codes
    static let namesAfterDigits = ["dollars", "dollar", "US dollars", "euros", "euro", "pounds", "pound sterling", "yen", "francs",
                                   "Swiss francs", "kronor", "kroner", "krona", "kr", "rupees", "yuan", "pesos", "rubles", "rand",
                                   "zloty", "złoty", "forints", "lira", "shekels", "baht", "dirhams", "cents", "pence", "bitcoin",
                                   "bitcoins", "ether", "satoshis", "sats", "quid", "bucks", "buck", "grand", "fivers", "tenners"]
    static let namesAfterWords = MoneyFilter.Amounts.pluralNames
    static let frames = ["It goes for %@ now.", "%@", "Expect to pay %@ for it", "(%@)", "copies at %@, easily"]

    /// Every generated form, with the sentence frame it sits in.
    static var forms: [String] {
        var amounts: [String] = []
        for digits in digitAmounts {
            for symbol in symbols {
                amounts += ["\(digits) \(symbol)", "\(digits)\(symbol)", "\(symbol)\(digits)", "\(symbol) \(digits)"]
            }
            for code in codes {
                amounts += ["\(digits) \(code)", "\(code) \(digits)", "\(digits) \(code.lowercased())", "\(code)\(digits)"]
            }
            for name in namesAfterDigits { amounts.append("\(digits) \(name)") }
        }
        for words in wordAmounts {
            for name in namesAfterWords { amounts.append("\(words) \(name)") }
        }
        amounts += ["kr 1.500", "Fr. 20", "Rs 500", "zł 40", "five grand", "a few grand"]
        return amounts.enumerated().map { index, amount in String(format: frames[index % frames.count], amount) }
    }

    @Test("The forms reported in the issue are money")
    func reportedForms() {
        for form in Self.reported {
            #expect(MoneyFilter.flags("A mint copy sells for \(form) these days."), "\(form)")
            #expect(MoneyFilter.flags(form), "\(form)")
        }
    }

    @Test("Every generated form of money is flagged")
    func everyGeneratedForm() {
        let forms = Self.forms
        let missed = forms.filter { !MoneyFilter.flags($0) }
        #expect(missed.isEmpty, "\(missed.count) of \(forms.count) forms slipped through: \(missed.prefix(20))")
        // The table's size, for docs/reliability.md.
        print("money filter: \(forms.count) generated forms (\(Self.symbols.count) symbols, \(Self.codes.count) codes, "
              + "\(Self.namesAfterDigits.count) names and slang after digits, \(Self.namesAfterWords.count) after number words)")
    }

    @Test("Music talk with numbers and currency-like words is not money", arguments: [
        "Billion Dollar Babies is Alice Cooper's 1973 peak.",
        "The Million Dollar Quartet session is loose and joyful.",
        "50 Cent's debut still hits hard.",
        "Track 2 won me over on the second listen.",
        "A grand piano carries the ballad.",
        "She has a yen for sparse arrangements.",
        "Recorded at 45 rpm on a 7-inch single.",
        "The 1975 sound brighter than ever.",
        "Side B, track 4, runs 42 minutes in total.",
        "Ten Years After open with a shuffle.",
        "The 5,000 Spirits or the Layers of the Onion is a folk landmark.",
        "Sixpence None the Richer's best-known song.",
        "Pounding drums and 808s drive the record.",
        "Their top 10 hit came in 1986.",
        "Mixed in 1080p video for the tour film.",
        "Two Door Cinema Club at their most nervy.",
        "He sold 500k copies of the single.",
    ])
    func musicTalkPasses(text: String) {
        #expect(!MoneyFilter.flags(text), "\(text)")
    }
}
