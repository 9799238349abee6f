@testable import CrateCore
import Foundation
import Testing

/// Every rule of `MusicText` against real names: Tests/Fixtures/music-text/pairs.tsv holds pairs
/// that must compare equal ("same") and near misses that must not ("different").
@Suite("Music text")
struct MusicTextPairsTests {
    struct Pair: CustomTestStringConvertible, Sendable {
        let kind: String, a: String, b: String, same: Bool
        var testDescription: String { "\(kind): \(a) ~ \(b) → \(same ? "same" : "different")" }
    }

    static let pairs: [Pair] = {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = (try? String(contentsOf: tests.appendingPathComponent("Fixtures/music-text/pairs.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Pair(kind: fields[0], a: fields[1], b: fields[2], same: fields[3] == "same")
        }
    }()

    static func matches(_ pair: Pair) -> Bool? {
        switch pair.kind {
        case "name": return MusicText.fold(pair.a) == MusicText.fold(pair.b)
        case "artist": return MusicText.artist(pair.a) == MusicText.artist(pair.b)
        case "various": return ArtistCredit.isVarious(pair.a)
        case "title": return MusicText.title(pair.a) == MusicText.title(pair.b)
        case "similar": return MusicText.similarity(pair.a, pair.b) >= CandidateScorer().strongMatch
        case "catno": return CatalogueNumber.same(pair.a, pair.b)
        case "barcode": return Barcode(pair.a).map { a in Barcode(pair.b).map(a.isSameItem) ?? false } ?? false
        case "barcode-problem":
            do {
                _ = try Barcode(typed: pair.a)
                return false
            } catch {
                return error.code == pair.b
            }
        default: return nil
        }
    }

    @Test func theTableHasEnoughRealPairs() {
        #expect(Self.pairs.count >= 150)
        #expect(Self.pairs.filter(\.same).count >= 75)
        #expect(Self.pairs.filter { !$0.same }.count >= 75)
    }

    @Test(arguments: pairs)
    func pair(_ pair: Pair) {
        let result = Self.matches(pair)
        #expect(result != nil, "unknown kind \(pair.kind)")
        #expect(result == pair.same, "\(pair.kind): \(MusicText.fold(pair.a)) / \(MusicText.fold(pair.b))")
    }

    @Test func foldedForms() {
        #expect(MusicText.fold("The Beatles") == "beatles")
        #expect(MusicText.fold("Beatles, The") == "beatles")
        #expect(MusicText.fold("Simon & Garfunkel") == "simon and garfunkel")
        #expect(MusicText.fold("AC/DC") == "ac dc")
        #expect(MusicText.fold("!!!") == "!!!")
        #expect(MusicText.fold("The The") == "the the")
        #expect(MusicText.fold("ＹＭＯ") == "ymo")
        #expect(EditionNoise.strip("(Deluxe)") == "(Deluxe)")
        #expect(ArtistCredit.name("Beatles, The") == "The Beatles")
        #expect(ArtistCredit.names("Jay-Z & Kanye West feat. Frank Ocean", splittingAnd: true) == ["Jay-Z", "Kanye West", "Frank Ocean"])
        #expect(CatalogueNumber.key("CDP 7 46200 2") == "CDP7462002")
    }

    @Test func barcodesHaveOneForm() throws {
        #expect(try Barcode(typed: "720642442524").gtin13 == "0720642442524")
        #expect(try Barcode(typed: "01234565").gtin13 == "0012345000065")
        #expect(throws: BarcodeError.isbn("9780140449136")) { try Barcode(typed: "9780140449136") }
        #expect(throws: BarcodeError.wrongCheckDigit("720642442525", expected: "4")) { try Barcode(typed: "720642442525") }
    }
}
