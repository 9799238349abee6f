import CrateCore
import Foundation
import Testing

@Suite("Genre taxonomy")
struct GenreTaxonomyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let dataFile = root.appendingPathComponent("data/genres.json")
    /// MusicBrainz's genre list in the `/ws/2/genre/all?fmt=txt` shape.
    static let genreList = root.appendingPathComponent("Tests/Fixtures/musicbrainz/genre-all.txt")

    static func musicBrainzGenres() throws -> Set<String> {
        let text = try String(contentsOf: genreList, encoding: .utf8)
        return Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty })
    }

    @Test func theDataFileLoadsWithAboutFifteenSuperGenresEachWithSubcategories() throws {
        let taxonomy = try GenreTaxonomy.load(from: Self.dataFile)
        #expect((12...20).contains(taxonomy.genres.count))
        for genre in taxonomy.genres {
            #expect(genre.subcategories.count >= 6, "\(genre.id) has only \(genre.subcategories.count) subcategories")
        }
        // The standard search (CRATE_DATA_FILES, installed, source tree) finds the same file.
        #expect(try GenreTaxonomy.load(environment: ["CRATE_DATA_FILES": Self.root.appendingPathComponent("data").path]) == taxonomy)
        #expect(try GenreTaxonomy.load(environment: [:]) == taxonomy)
    }

    @Test func everyMappedNameIsAMusicBrainzGenre() throws {
        let known = try Self.musicBrainzGenres()
        #expect(known.count > 500)
        let taxonomy = try GenreTaxonomy.load(from: Self.dataFile)
        for entry in taxonomy.allEntries {
            for name in entry.musicBrainz {
                #expect(known.contains(name), "\(entry.id) maps to \"\(name)\", which is not in MusicBrainz's genre list")
            }
        }
    }

    @Test func genresAndSubcategoriesAreFoundByIdOrName() throws {
        let taxonomy = try GenreTaxonomy.load(from: Self.dataFile)
        let dance = try #require(taxonomy.genre(named: "dance"))
        #expect(taxonomy.genre(named: "R&B & Soul")?.id == "rnb-soul")
        #expect(taxonomy.genre(named: "hip hop")?.id == "hip-hop")
        let dnb = try #require(dance.subcategory(named: "Drum & Bass"))
        #expect(dnb.musicBrainz.first == "drum and bass")
        #expect(dnb.searchTags.contains("drum & bass"))
        #expect(taxonomy.genre(named: "rock")?.subcategory(named: "post rock")?.id == "post-rock")
        #expect(taxonomy.genre(named: "polka-step") == nil)
    }

    // MARK: Bad files

    static func entry(_ id: String, mb: [String] = ["rock"], tags: [String]? = nil) -> String {
        let tagsField = tags.map { ",\"tags\":[\($0.map { "\"\($0)\"" }.joined(separator: ","))]" } ?? ""
        return #"{"id":"\#(id)","name":"\#(id.capitalized)","musicbrainz":[\#(mb.map { "\"\($0)\"" }.joined(separator: ","))]\#(tagsField)}"#
    }

    static func file(_ genres: String, format: Int = 1) -> Data {
        Data(#"{"format":\#(format),"genres":[\#(genres)]}"#.utf8)
    }

    static func genre(_ id: String, subs: [String]) -> String {
        let head = entry(id).dropLast()
        return head + #","subcategories":[\#(subs.joined(separator: ","))]}"#
    }

    @Test func aGoodMinimalFileDecodes() throws {
        let taxonomy = try GenreTaxonomy.decode(Self.file(Self.genre("rock", subs: [Self.entry("post-rock", mb: ["post-rock"])])))
        #expect(taxonomy.genres.map(\.id) == ["rock"])
    }

    @Test(arguments: [
        ("not json", Data("{".utf8), "not valid JSON"),
        ("no genres", GenreTaxonomyTests.file(""), "no genres"),
        ("newer format", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("a")]), format: 2), "format 2"),
        ("no subcategories", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [])), "no subcategories"),
        ("duplicate id", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("rock")])), "used twice"),
        ("empty mapping", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("a", mb: [])])), "no MusicBrainz genre"),
        ("upper-case tag", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("a", mb: ["Post-Rock"])])), "not a MusicBrainz tag"),
        ("double space", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("a", mb: ["post  rock"])])), "not a MusicBrainz tag"),
        ("repeated tag", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("a", mb: ["dub"], tags: ["dub"])])), "twice"),
        ("bad slug", GenreTaxonomyTests.file(GenreTaxonomyTests.genre("rock", subs: [GenreTaxonomyTests.entry("Post Rock")])), "not a slug"),
        ("missing name", Data(#"{"format":1,"genres":[{"id":"rock","musicbrainz":["rock"],"subcategories":[]}]}"#.utf8), "missing \"name\""),
    ])
    func aBadFileIsRejectedWithTheReason(_ label: String, _ data: Data, _ reason: String) {
        do {
            _ = try GenreTaxonomy.decode(data)
            Issue.record("\(label): accepted")
        } catch let error as GenreTaxonomyError {
            guard case .invalid(let text) = error else { Issue.record("\(label): \(error)"); return }
            #expect(text.contains(reason), "\(label): \(text)")
            #expect(UserMessage.text(for: error).hasPrefix("The genre list is damaged"))
        } catch {
            Issue.record("\(label): \(error)")
        }
    }

    @Test func aMissingFileSaysSo() throws {
        #expect(throws: GenreTaxonomyError.unreadable("/nonexistent/genres.json")) {
            try GenreTaxonomy.load(from: URL(fileURLWithPath: "/nonexistent/genres.json"))
        }
    }
}
