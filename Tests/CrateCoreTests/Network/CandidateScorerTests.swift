import CrateCore
import Testing

@Suite("CandidateScorer")
struct CandidateScorerTests {
    static func candidate(_ n: Int, title: String = "Rumours", artist: String = "Fleetwood Mac", date: String? = "1977", status: String? = "Official", type: String? = "Album", secondary: [String] = []) -> ReleaseCandidate {
        ReleaseCandidate(releaseID: try! MBID("00000000-0000-4000-8000-00000000000\(n)"), title: title, artist: artist, date: date, status: status, primaryType: type, secondaryTypes: secondary)
    }

    @Test func officialOriginalAlbumBeatsCompilationBootlegAndReissue() {
        let candidates = [
            Self.candidate(1, date: "1988", secondary: ["Compilation"]),
            Self.candidate(2, date: "", status: "Bootleg"),
            Self.candidate(3, date: "2004-03-22"),
            Self.candidate(4, date: "1977-02-04"),
            Self.candidate(5, title: "Rumours (Live)", type: "Album", secondary: ["Live"]),
            Self.candidate(6, title: "Tusk"),
        ]

        let ranked = CandidateScorer().rank(candidates, for: ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac"))
        let match = ReleaseMatch(ranked: ranked)

        #expect(match.best?.releaseID.rawValue.hasSuffix("4") == true)
        #expect(match.runnersUp.first?.releaseID.rawValue.hasSuffix("3") == true)
        #expect(match.runnersUp.count == 5)
        #expect(ranked.last?.title == "Tusk")
        #expect(ranked.map(\.score) == ranked.map(\.score).sorted(by: >))
    }

    @Test func normalisationFoldsCaseAccentsPunctuationAndArticles() {
        #expect(MusicText.fold("The Beatles") == "beatles")
        #expect(MusicText.fold("Beatles, The") == "beatles")
        #expect(MusicText.fold("Beyoncé") == "beyonce")
        #expect(MusicText.fold("Simon & Garfunkel") == "simon and garfunkel")
        #expect(MusicText.fold("AC/DC") == "ac dc")
        #expect(MusicText.fold("!!!") == "!!!")
        #expect(MusicText.fold("The The") == "the the")
        #expect(MusicText.similarity("Sigur Rós", "sigur ros") == 1)
        #expect(MusicText.similarity("!!!", "Sunn O)))") < 0.5)
    }

    @Test func misspellingStillScoresHigh() {
        #expect(MusicText.similarity("Fleetwod Mac", "Fleetwood Mac") > 0.9)
        #expect(MusicText.similarity("Rumors", "Rumours") > 0.8)
    }

    @Test func queryYearIsPreferredWhenGiven() {
        let ranked = CandidateScorer().rank([Self.candidate(1, date: "1977"), Self.candidate(2, date: "2004")], for: ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", year: "2004"))
        #expect(ranked.first?.date == "2004")
    }
}
