import Foundation
import Testing
@testable import CrateCore

@Suite("Identification answer parsing")
struct IdentificationAnswerTests {
    @Test func plainAnswer() throws {
        let answer = try IdentificationAnswer.parse(#"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":"Warner Bros.","readable_text":"FLEETWOOD MAC RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.95}"#)
        #expect(answer == IdentificationAnswer(artist: "Fleetwood Mac", album: "Rumours", year: "1977", label: "Warner Bros.", readableText: "FLEETWOOD MAC RUMOURS", textConfidence: .high, searchNeeded: false, confidence: 0.95))
        #expect(answer.isIdentified)
    }

    @Test func fencesProseNumbersAsStringsAndYearAsNumber() throws {
        let text = """
        Sure! Here is what I see on the cover:
        ```json
        {"artist": "Radiohead", "album": "OK Computer", "year": 1997, "label": null,
         "readable_text": "RADIOHEAD", "text_confidence": "Medium", "search_needed": "true", "confidence": "0.8"}
        ```
        Hope that helps {really}.
        """
        let answer = try IdentificationAnswer.parse(text)
        #expect(answer.artist == "Radiohead")
        #expect(answer.year == "1997")
        #expect(answer.label == nil)
        #expect(answer.textConfidence == .medium)
        #expect(answer.searchNeeded)
        #expect(answer.confidence == 0.8)
    }

    @Test func percentagesDatesAndPlaceholders() throws {
        let answer = try IdentificationAnswer.parse(#"{"artist":"X","album":"Y","year":"1977-06-29","label":"null","readable_text":"","text_confidence":"certain","search_needed":0,"confidence":"85%"}"#)
        #expect(answer.year == "1977")
        #expect(answer.label == nil)
        #expect(answer.textConfidence == .low, "an unknown word keeps the search gate shut")
        #expect(!answer.searchNeeded)
        #expect(abs(answer.confidence - 0.85) < 1e-9)
    }

    @Test func emptyArtistOrAlbumIsNotIdentified() throws {
        #expect(!(try IdentificationAnswer.parse(#"{"artist":"","album":"Rumours","confidence":0.2}"#)).isIdentified)
        #expect(!(try IdentificationAnswer.parse(#"{"artist":"Fleetwood Mac","album":null}"#)).isIdentified)
        #expect(!(try IdentificationAnswer.parse(#"{"artist":"   ","album":"x"}"#)).isIdentified)
    }

    @Test func notJSONIsUnreadable() {
        #expect(throws: IdentificationError.unreadableAnswer) { try IdentificationAnswer.parse("I think this is Rumours by Fleetwood Mac.") }
        #expect(throws: IdentificationError.unreadableAnswer) { try IdentificationAnswer.parse("") }
        #expect(IdentificationError.unreadableAnswer.message == "Unable to identify this cover art")
    }
}

@Suite("Search gate")
struct SearchGateTests {
    static let cases: [(searchNeeded: Bool, text: String, confidence: TextConfidence, advanced: Bool, open: Bool)] = [
        (true, "ABC", .medium, true, true),
        (true, "ABC", .high, true, true),
        (true, "ABC", .low, true, false),
        (true, "AB", .high, true, false),
        (true, " - ! ", .high, true, false),
        (true, "A B C", .high, true, true),
        (false, "ABCDEF", .high, true, false),
        (true, "ABCDEF", .high, false, false),
        (false, "", .low, false, false),
    ]

    @Test(arguments: 0..<cases.count)
    func truthTable(_ index: Int) {
        let c = Self.cases[index]
        let answer = IdentificationAnswer(artist: "", album: "", year: nil, label: nil, readableText: c.text, textConfidence: c.confidence, searchNeeded: c.searchNeeded, confidence: 0.3)
        #expect(SearchGate.allows(answer, advancedSearch: c.advanced) == c.open, "case \(index)")
    }
}
