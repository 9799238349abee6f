import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// identify-v2's hints in the MusicBrainz search: barcode → catalogue number (+ label) → title and
/// artist → recordings, stopping at the first good search; every query valid Lucene.
@Suite("MusicBrainz search with sleeve hints")
struct SleeveHintSearchTests {
    static let empty = #"{"count":0,"offset":0,"releases":[]}"#
    static let singleReleaseID = "3c2b1a09-8f7e-4d6c-9b5a-493827161504"
    static let compilationID = "4d3c2b1a-0f9e-4d7c-8b6a-5a4938271615"

    /// A recording search answer: "Blue Monday" on the 12" single and on a compilation.
    static let blueMondayRecordings = """
    {"created":"2026-05-26T01:37:12.691Z","count":2,"offset":0,"recordings":[
     {"id":"5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716","score":100,"title":"Blue Monday",
      "artist-credit":[{"name":"New Order","artist":{"id":"f1106b17-dcbb-45f6-b938-199ccfab50cc","name":"New Order"}}],
      "releases":[
       {"id":"\(singleReleaseID)","title":"Blue Monday","status":"Official","date":"1983-03-07","country":"GB",
        "release-group":{"id":"6f5e4d3c-2b1a-4098-8e7d-6c5b4a392817","primary-type":"Single"},
        "media":[{"position":1,"format":"12\\" Vinyl","track-count":2}]},
       {"id":"\(compilationID)","title":"Substance","status":"Official","date":"1987","country":"GB",
        "release-group":{"id":"7a6f5e4d-3c2b-4a19-8f8e-7d6c5b4a3928","primary-type":"Album","secondary-types":["Compilation"]}},
       {"id":"not-an-mbid","title":"Broken"}]},
     {"id":"x","title":"Blue Monday '88","releases":"not a list"}
    ]}
    """

    // MARK: - Lucene

    /// Reads the subset of Lucene these builders write — `field:"phrase"`, `field:(a~ b~)`,
    /// `field:term`, `( … OR … )`, joined by AND / OR — and returns each field's value with the
    /// escapes removed; nil when anything would not parse (an unbalanced quote or parenthesis, a
    /// special character left bare, a dangling escape).
    static func parse(_ query: String) -> [(field: String, value: String)]? {
        let special: Set<Character> = ["+", "-", "&", "|", "!", "(", ")", "{", "}", "[", "]", "^", "\"", "~", "*", "?", ":", "\\", "/"]
        let chars = Array(query)
        var i = 0
        var out: [(String, String)] = []
        var depth = 0
        func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }
        func keyword() -> Bool {
            for word in ["AND ", "OR "] where String(chars[i..<min(chars.count, i + word.count)]) == word {
                i += word.count
                return true
            }
            return false
        }
        func bareTerm() -> String? {
            var value = ""
            while i < chars.count, chars[i] != " ", chars[i] != ")" {
                if chars[i] == "\\" {
                    guard i + 1 < chars.count, special.contains(chars[i + 1]) else { return nil }
                    value.append(chars[i + 1]); i += 2
                } else if chars[i] == "~", i + 1 == chars.count || chars[i + 1] == " " || chars[i + 1] == ")" {
                    i += 1
                } else if special.contains(chars[i]) {
                    return nil
                } else {
                    value.append(chars[i]); i += 1
                }
            }
            return value.isEmpty ? nil : value
        }
        while i < chars.count {
            skipSpaces()
            if chars[i] == "(" { depth += 1; i += 1; continue }
            var field = ""
            while i < chars.count, chars[i].isLetter { field.append(chars[i]); i += 1 }
            guard !field.isEmpty, i < chars.count, chars[i] == ":" else { return nil }
            i += 1
            guard i < chars.count else { return nil }
            if chars[i] == "\"" {
                i += 1
                var value = ""
                var closed = false
                while i < chars.count {
                    if chars[i] == "\\" {
                        guard i + 1 < chars.count else { return nil }
                        value.append(chars[i + 1]); i += 2
                    } else if chars[i] == "\"" {
                        closed = true; i += 1; break
                    } else {
                        value.append(chars[i]); i += 1
                    }
                }
                guard closed else { return nil }
                out.append((field, value))
            } else if chars[i] == "(" {
                i += 1
                var words: [String] = []
                while i < chars.count, chars[i] != ")" {
                    skipSpaces()
                    guard let word = bareTerm() else { return nil }
                    words.append(word)
                    skipSpaces()
                }
                guard i < chars.count else { return nil }
                i += 1
                out.append((field, words.joined(separator: " ")))
            } else {
                guard let term = bareTerm() else { return nil }
                out.append((field, term))
            }
            while i < chars.count, chars[i] == ")" { depth -= 1; i += 1; guard depth >= 0 else { return nil } }
            skipSpaces()
            if i < chars.count { guard keyword() else { return nil } }
        }
        return depth == 0 && !out.isEmpty ? out : nil
    }

    static let hardNames = ["AC/DC", "Sunn O)))", "!!!", "Godspeed You! Black Emperor", "Florence + the Machine",
                            #"The "Quoted" One"#, "Key: Value", "(Parens)", #"Back\slash"#, "a && b || c", "What?*~^"]

    @Test(arguments: hardNames)
    func everyNewQueryIsValidLucene(_ name: String) throws {
        let catno = try #require(Self.parse(LuceneQuery.catalogNumber(name, label: name)))
        #expect(catno.map(\.field) == ["catno", "label"])
        #expect(catno.allSatisfy { $0.value == name }, "\(LuceneQuery.catalogNumber(name, label: name))")
        let recordings = LuceneQuery.recordings(titles: [name, "Intro", name], artist: name)
        let parsed = try #require(Self.parse(recordings), "\(recordings)")
        #expect(parsed.map(\.field) == ["recording", "recording", "artist"])
        #expect(parsed.map(\.value) == [name, "Intro", name])
        #expect(Self.parse(LuceneQuery.exactRelease(title: name, artist: name)) != nil)
        #expect(Self.parse(LuceneQuery.fuzzyRelease(title: name, artist: name)) != nil)
    }

    @Test func queryShapes() throws {
        #expect(LuceneQuery.catalogNumber("K 56344", label: "Warner Bros.") == #"catno:"K 56344" AND label:"Warner Bros.""#)
        #expect(LuceneQuery.catalogNumber(" K\n56344 ", label: "  ") == #"catno:"K 56344""#)
        #expect(LuceneQuery.recordings(titles: ["Blue Monday"], artist: "New Order") == #"recording:"Blue Monday" AND artist:"New Order""#)
        #expect(LuceneQuery.recordings(titles: ["A", "B"], artist: nil) == #"(recording:"A" OR recording:"B")"#)
        #expect(LuceneQuery.recordings(titles: [" ", "\n"], artist: "X") == "")
        #expect(LuceneQuery.barcode(try Barcode(typed: "5 011038 563448")) == "barcode:5011038563448")
        #expect(Self.parse(#"release:"unclosed"#) == nil && Self.parse("artist:AC/DC") == nil && Self.parse("(artist:x") == nil)
    }

    // MARK: - Order and request counts

    @Test func catalogueNumberIsSearchedFirstAndOneGoodSearchIsEnough() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])

        let query = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", label: "Warner Bros.", catalogNumber: "K 56344")
        let match = try await MusicBrainzClientTests.makeClient(server).findRelease(query)

        #expect(server.requests.count == 1)
        #expect(server.requests[0].queryItem("query") == #"catno:"K 56344" AND label:"Warner Bros.""#)
        // The pressing whose catalogue number was read wins over the same album's other releases.
        #expect(match.best?.releaseID.rawValue == MusicBrainzFixtures.rumoursReleaseID)
        #expect(match.best?.catalogNumbers == ["K 56344"])
    }

    @Test func catalogueNumberAloneWhenTheLabelFindsNothingThenTitleAndArtist() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(Self.empty), .json(Self.empty), .json(MusicBrainzFixtures.rumoursSearch)])

        let query = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", label: "WB", catalogNumber: "K-56344")
        let match = try await MusicBrainzClientTests.makeClient(server).findRelease(query)

        #expect(server.requests.map { $0.queryItem("query") ?? "" } == [
            #"catno:"K-56344" AND label:"WB""#, #"catno:"K-56344""#, #"release:"Rumours" AND artist:"Fleetwood Mac""#,
        ])
        #expect(match.best?.releaseID.rawValue == MusicBrainzFixtures.rumoursReleaseID, "K-56344 is K 56344 to MusicBrainz and to Crate")
    }

    @Test func aWrongCatalogueNumberNeverMakesTheTitleSearchWorse() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release") { request in
            request.queryItem("query")?.hasPrefix("catno:") == true ? .json(Self.blueMondayAsReleases) : .json(MusicBrainzFixtures.rumoursSearch)
        }
        let client = MusicBrainzClientTests.makeClient(server)
        let plain = try await client.findRelease(ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac"))
        let hinted = try await client.findRelease(ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", catalogNumber: "FAC 73"))

        #expect(hinted.best?.releaseID == plain.best?.releaseID)
        #expect((hinted.best?.score ?? 0) >= (plain.best?.score ?? 1))
    }

    @Test func aValidBarcodeIsSearchedFirst() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])

        let query = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", catalogNumber: "K 56344", barcode: "5 011038 563448")
        _ = try await MusicBrainzClientTests.makeClient(server).findRelease(query)

        #expect(server.requests.count == 1)
        #expect(server.requests[0].queryItem("query") == "barcode:5011038563448")
    }

    @Test(arguments: ["5011038563441", "9780306406157", "12345", "50110385634481"])
    func aBadBarcodeNeverReachesAQuery(_ digits: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])

        let query = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", barcode: digits)
        #expect(query.validBarcode == nil)
        _ = try await MusicBrainzClientTests.makeClient(server).findRelease(query)

        #expect(server.requests.count == 1)
        #expect(server.requests.allSatisfy { !($0.queryItem("query") ?? "").contains("barcode") && !($0.query ?? "").contains(digits) })
    }

    @Test func theRecordingSearchFindsASingleByItsTrackTitle() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(Self.empty)])
        server.route("/ws/2/recording", responses: [.json(Self.blueMondayRecordings)])

        let query = ReleaseQuery(title: "Blue Monday", artist: "New Order", format: "12\" single", trackTitles: ["Blue Monday", "The Beach"])
        let match = try await MusicBrainzClientTests.makeClient(server).findRelease(query)

        let best = try #require(match.best)
        #expect(best.releaseID.rawValue == Self.singleReleaseID)
        #expect(best.artist == "New Order", "the release inside a recording takes the recording's artist")
        #expect(best.hasTrackFromSleeve)
        #expect(best.score >= 0.85)
        // Exact title search found nothing; for a single the recordings come before the fuzzy search.
        #expect(server.requests.map(\.path) == ["/ws/2/release", "/ws/2/recording"])
        #expect(server.requests[1].queryItem("query") == #"(recording:"Blue Monday" OR recording:"The Beach") AND artist:"New Order""#)
        #expect(match.runnersUp.map(\.releaseID.rawValue) == [Self.compilationID])
    }

    @Test func recordingsLastWhenNothingScoredWellAndNoneWithoutTracks() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(Self.empty)])
        server.route("/ws/2/recording", responses: [.json(Self.blueMondayRecordings)])
        let client = MusicBrainzClientTests.makeClient(server)

        let match = try await client.findRelease(ReleaseQuery(title: "Blue Monday", artist: "New Order", trackTitles: ["Blue Monday"]))
        #expect(server.requests.map(\.path) == ["/ws/2/release", "/ws/2/release", "/ws/2/recording"])
        #expect(match.best?.releaseID.rawValue == Self.singleReleaseID)

        _ = try await client.findRelease(ReleaseQuery(title: "Blue Monday", artist: "New Order", format: "7\" single"))
        #expect(server.requests.count == 5, "no track titles: exact and fuzzy only")
    }

    @Test func aGoodTitleSearchStopsBeforeTheRecordings() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])

        let query = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", format: "7\" single", trackTitles: ["Dreams"])
        _ = try await MusicBrainzClientTests.makeClient(server).findRelease(query)
        #expect(server.requests.count == 1)
    }

    @Test func hintsOnlyEverRaiseAScore() throws {
        let scorer = CandidateScorer()
        let plain = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac")
        let hinted = ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", label: "Warner Bros. Records", catalogNumber: "k56344",
                                  barcode: "5011038563448", trackTitles: ["Dreams"])
        var candidates: [ReleaseCandidate] = []
        for (index, title) in ["Rumours", "Rumors", "Tusk", "Blue Monday"].enumerated() {
            for status in ["Official", "Bootleg", nil] {
                var candidate = ReleaseCandidate(releaseID: try MBID("\(index)c2b1a09-8f7e-4d6c-9b5a-493827161504"), title: title,
                                                 artist: index == 3 ? "New Order" : "Fleetwood Mac", date: "1977", status: status, primaryType: "Album")
                candidates.append(candidate)
                candidate.catalogNumbers = ["K 56344"]
                candidates.append(candidate)
                candidate.labels = ["Warner Bros. Records"]
                candidate.barcode = "5011038563448"
                candidate.hasTrackFromSleeve = true
                candidates.append(candidate)
                candidate.catalogNumbers = ["FAC 73"]
                candidate.barcode = "0093624877725"
                candidates.append(candidate)
            }
        }
        for candidate in candidates {
            let before = scorer.score(candidate, for: plain, referenceYear: 1977)
            let after = scorer.score(candidate, for: hinted, referenceYear: 1977)
            #expect(after >= before && after <= 1, "\(candidate.title) \(candidate.catalogNumbers)")
            if candidate.catalogNumbers.isEmpty && candidate.labels.isEmpty && !candidate.hasTrackFromSleeve {
                #expect(after == before, "no agreement, no change")
            }
        }
    }

    /// "Blue Monday" releases answered to a catalogue-number search for another album.
    static let blueMondayAsReleases = """
    {"count":1,"offset":0,"releases":[
     {"id":"\(singleReleaseID)","score":100,"title":"Blue Monday","status":"Official","date":"1983",
      "artist-credit":[{"name":"New Order"}],"release-group":{"id":"6f5e4d3c-2b1a-4098-8e7d-6c5b4a392817","primary-type":"Single"},
      "label-info":[{"catalog-number":"FAC 73","label":{"id":"a1","name":"Factory"}}]}]}
    """
}
