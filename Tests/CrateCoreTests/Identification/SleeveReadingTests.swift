import Foundation
import GRDB
import Testing
@testable import CrateCore

/// identify-v2: the prompt, and the sleeve fields read leniently out of the model's answer.
@Suite("Sleeve reading (identify-v2)")
struct SleeveReadingTests {
    static let library = PromptLibrary.locate(environment: [:])

    @Test func v2IsTheDefaultAndAsksForTheSleeveFields() throws {
        #expect(PromptLibrary.identify == "identify-v2")
        let text = try Self.library.prompt(PromptLibrary.identify).text
        for key in ["artist", "album", "year", "label", "catalog_number", "barcode", "format", "track_titles",
                    "readable_text", "text_confidence", "search_needed", "confidence"] {
            #expect(text.contains("\"\(key)\""), "identify-v2 lacks \(key)")
        }
        #expect(text.contains("JSON"))
        // Music first: the prompt forbids value talk and asks for no such field.
        #expect(text.contains("never mention prices, value, rarity"))
        let schema = try #require(text.split(separator: "\n").last)
        for word in ["price", "value", "rare", "worth", "cost", "market"] {
            #expect(!schema.lowercased().contains(word), "the JSON keys mention \(word)")
        }
    }

    @Test func v1IsKeptExactlyAsShipped() throws {
        let url = try #require(Self.library.directory).appendingPathComponent("identify-v1.md")
        let bytes = try Data(contentsOf: url)
        #expect(PhotoDigest.of(bytes) == "fnv1a64-2b05264c0afdf3ec-1380", "identify-v1.md was edited: add a new version instead")
        #expect(try Self.library.prompt(PromptLibrary.identifyV1).text.contains("\"catalog_number\"") == false)
    }

    @Test func goodAnswerCarriesEveryField() throws {
        let answer = try IdentificationAnswer.parse("""
        {"artist":"New Order","album":"Blue Monday","year":"1983","label":"Factory","catalog_number":"FAC 73",
         "barcode":"5 011038 563441","format":"12\\" single","track_titles":["Blue Monday","The Beach"],
         "readable_text":"FAC 73","text_confidence":"high","search_needed":false,"confidence":0.9}
        """)
        #expect(answer.label == "Factory")
        #expect(answer.sleeve == SleeveReading(catalogNumber: "FAC 73", barcode: "5011038563441", format: "12\" single", trackTitles: ["Blue Monday", "The Beach"]))
        #expect(answer.sleeve.looksLikeSingleOrEP)
    }

    @Test func wrongTypesAreDroppedNotFatal() throws {
        let answer = try IdentificationAnswer.parse("""
        {"artist":"X","album":"Y","catalog_number":{"a":1},"barcode":"50110385634AB","format":12,
         "track_titles":"Just one string","readable_text":"","text_confidence":"low","search_needed":false,"confidence":0.5}
        """)
        #expect(answer.isIdentified)
        #expect(answer.sleeve == SleeveReading())
        #expect(answer.sleeve.isEmpty)
        let mixed = try IdentificationAnswer.parse(#"{"artist":"X","album":"Y","catalog_number":7243,"barcode":"n/a","format":"unknown","track_titles":["A",7,null,{"t":"B"},"  ","a","C"]}"#)
        #expect(mixed.sleeve.catalogNumber == "7243", "a numeric catalogue number is still one")
        #expect(mixed.sleeve.barcode == nil && mixed.sleeve.format == nil)
        #expect(mixed.sleeve.trackTitles == ["A", "C"], "non-strings, blanks and repeats are dropped")
    }

    @Test func fencedV1AnswerHasAnEmptySleeve() throws {
        let answer = try IdentificationAnswer.parse("""
        Here it is:
        ```json
        {"artist":"Fleetwood Mac","album":"Rumours","year":1977,"label":null,"readable_text":"RUMOURS","text_confidence":"high","search_needed":false,"confidence":"0.9"}
        ```
        """)
        #expect(answer.album == "Rumours")
        #expect(answer.sleeve.isEmpty)
        let fenced = try IdentificationAnswer.parse("```json\n{\"artist\":\"A\",\"album\":\"B\",\"catalog_number\":\"K 56344\",\"track_titles\":[\"Dreams\"]}\n```")
        #expect(fenced.sleeve.catalogNumber == "K 56344" && fenced.sleeve.trackTitles == ["Dreams"])
    }

    @Test func hugeAnswersAreCapped() throws {
        let titles = (0..<500).map { "\"Track \($0) \(String(repeating: "x", count: 1000))\"" }.joined(separator: ",")
        let text = #"{"artist":"A","album":"B","catalog_number":"\#(String(repeating: "9", count: 5000))","format":"\#(String(repeating: "v", count: 5000))","track_titles":[\#(titles)]}"#
        let sleeve = try IdentificationAnswer.parse(text).sleeve
        #expect(sleeve.trackTitles.count == SleeveReading.maxTrackTitles)
        #expect(sleeve.trackTitles.allSatisfy { $0.count <= SleeveReading.maxTrackTitleLength })
        #expect((sleeve.catalogNumber?.count ?? 0) <= 60 && (sleeve.format?.count ?? 0) <= 40)
        #expect(SleeveReading(barcode: String(repeating: "1", count: 40)).barcode == nil)
        #expect(SleeveReading(catalogNumber: "K\u{0}56\n344").catalogNumber == "K 56 344")
    }

    @Test func singleOrEPFromTheFormatHint() {
        for format in ["7\" single", "12\" EP", "CD single", "Vinyl, 45 RPM", "7 inch", "Maxi-Single"] {
            #expect(SleeveReading(format: format).looksLikeSingleOrEP, "\(format)")
        }
        for format in ["vinyl", "CD", "cassette", "12\" LP", "Deep cut"] {
            #expect(!SleeveReading(format: format).looksLikeSingleOrEP, "\(format)")
        }
    }

    /// The journal stores answers as JSON: a row written before identify-v2 still reads, and the
    /// new fields survive a round trip.
    @Test func journalKeepsOldRowsReadableAndNewFieldsPersisted() throws {
        let db = try AppDatabase.inMemory()
        let old = #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":null,"confidence":0.9,"usedSearch":false}"#
        try db.writer.write { try $0.execute(sql: "INSERT INTO identification_journal(photoDigest, identity, answer, createdAt) VALUES ('old', 'anthropic/m', ?, ?)", arguments: [old, Date()]) }
        let read = try #require(try db.journaledIdentification(photoDigest: "old", identity: "anthropic/m"))
        #expect(read.album == "Rumours" && read.sleeve.isEmpty)

        let sleeve = SleeveReading(catalogNumber: "FAC 73", barcode: "5011038563441", format: "12\" single", trackTitles: ["Blue Monday"])
        let answer = VisionAnswer(artist: "New Order", album: "Blue Monday", year: "1983", label: "Factory", confidence: 0.9, usedSearch: false, sleeve: sleeve)
        try db.journalIdentification(answer, photoDigest: "new", identity: "anthropic/m")
        #expect(try db.journaledIdentification(photoDigest: "new", identity: "anthropic/m") == answer)
        #expect(answer.releaseQuery == ReleaseQuery(title: "Blue Monday", artist: "New Order", year: "1983", label: "Factory",
                                                    catalogNumber: "FAC 73", barcode: "5011038563441", format: "12\" single", trackTitles: ["Blue Monday"]))
    }

    @Test func searchCallKeepsWhatTheFirstLookReadOnTheSleeve() async throws {
        let first = #"{"artist":"","album":"","catalog_number":"BB 123","track_titles":["Eins"],"readable_text":"KRAUTWERK ZWEI BB 123","text_confidence":"high","search_needed":true,"confidence":0.1}"#
        let second = #"{"artist":"Krautwerk","album":"Zwei","year":2025,"label":"Bureau B","readable_text":"KRAUTWERK ZWEI","text_confidence":"high","search_needed":false,"confidence":0.9}"#
        let http = ScriptedHTTPClient([Wire.anthropic(text: first), Wire.anthropic(text: second)])
        let identifier = VisionIdentifier(provider: ProviderFactory.makeDirect(kind: .anthropic, key: "k", model: "claude-test", http: http)!,
                                          prompts: Self.library, advancedSearch: true, log: .silent)
        let answer = try #require(try await identifier.identify(photoJPEG: .fakeJPEG))
        #expect(answer.usedSearch)
        #expect(answer.sleeve.catalogNumber == "BB 123" && answer.sleeve.trackTitles == ["Eins"])
    }
}
