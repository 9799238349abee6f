@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Every truncation and a few corruptions of real-shaped bodies decode or fail with an error;
/// none may crash (a cheap, deterministic stand-in for RELIABILITY.md #14's fuzzing).
@Suite("Decoder robustness")
struct DecoderRobustnessTests {
    @Test func truncatedBodiesNeverCrash() {
        let bodies = [
            MusicBrainzFixtures.rumoursSearch,
            MusicBrainzFixtures.rumoursLookup,
            CoverArtFixtures.index(releaseID: MusicBrainzFixtures.rumoursReleaseID, imageBase: URL(string: "http://127.0.0.1:1")!),
        ].map { Data($0.utf8) }
        var decoded = 0
        for body in bodies {
            for length in Array(stride(from: 0, to: body.count, by: 7)) + [body.count] {
                let prefix = body.prefix(length)
                if (try? JSONDecoder().decode(MBSearchResponse.self, from: prefix)) != nil { decoded += 1 }
                if (try? JSONDecoder().decode(MBRelease.self, from: prefix)) != nil { decoded += 1 }
                if (try? JSONDecoder().decode(CoverArtIndex.self, from: prefix)) != nil { decoded += 1 }
            }
        }
        #expect(decoded >= 3)  // at least each complete body
    }

    @Test func wrongTypesEverywhereStillKeepTheRelease() throws {
        let json = """
        {"id":"7ec069c0-4424-3169-8ed0-d5e2473e0e84","title":42,"status":null,"score":"n/a","date":1977,
         "artist-credit":"Fleetwood Mac","release-group":[],"label-info":{},"media":[{"position":"2","tracks":[{"position":"x","length":1.5e300}]}],
         "genres":[{"name":null},{"name":"rock","count":"7"}]}
        """
        let release = try JSONDecoder().decode(MBRelease.self, from: Data(json.utf8))
        #expect(release.title == "42")
        #expect(release.year == "1977")
        #expect(release.score == nil)
        #expect(release.artistCredit.isEmpty)
        #expect(release.media.first?.position == 2)
        #expect(release.media.first?.tracks.first?.length == nil)
        #expect(release.genres.map(\.name) == ["rock"])
    }
}
