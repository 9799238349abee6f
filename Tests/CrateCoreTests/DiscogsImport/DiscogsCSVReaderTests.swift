@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Discogs CSV export")
struct DiscogsCSVReaderTests {
    func read(_ text: String) throws -> [DiscogsImportItem] { try DiscogsCSVReader.read(Data(text.utf8)) }

    func error(_ body: () throws -> Void) -> DiscogsImportError? {
        do { try body(); return nil } catch let error as DiscogsImportError { return error } catch { return nil }
    }

    @Test func aRealisticExportReadsEveryCopyWithItsNotesAndNoPrice() throws {
        let records = DiscogsImportFixtures.collection(count: 400)
        let items = try read(DiscogsImportFixtures.csv(records))
        #expect(items.count == records.reduce(0) { $0 + $1.copies })
        #expect(items.allSatisfy { $0.list == .collection })
        // A release owned twice is two copies; re-reading gives the same keys.
        let twice = try #require(records.first { $0.copies == 2 })
        #expect(items.filter { $0.releaseID == twice.releaseID }.map(\.copyIndex) == [1, 2])
        #expect(Set(items.map { "\($0.releaseID)-\($0.copyIndex)" }).count == items.count)
        // Quoted commas, quotes and newlines survive; accents too.
        let quoted = try #require(records.first { $0.notes.contains("\n") })
        #expect(items.first { $0.releaseID == quoted.releaseID }?.note?.contains("Gatefold; inner sleeve\nsigned by the band") == true)
        let comma = try #require(records.first { $0.notes.contains("\"first press\"") })
        #expect(items.first { $0.releaseID == comma.releaseID }?.note?.contains("Bought at Rough Trade, \"first press\"") == true)
        #expect(items.contains { $0.artist == "Björk" } && items.contains { $0.artist == "Various" })
        #expect(items.contains { $0.format == "2×LP, Album, RE" })
        #expect(items.filter { $0.catalogNumber == nil }.count == records.filter { $0.catalogNumber == "none" }.reduce(0) { $0 + $1.copies })
        let first = try #require(items.first)
        #expect(first.addedAt == Date(timeIntervalSince1970: 1_552_558_951))
        #expect(first.year == records[0].year)
    }

    @Test func theNoteKeepsConditionsRatingFolderAndNotes() throws {
        let csv = DiscogsImportFixtures.header + "\nK 56344,Fleetwood Mac,Rumours,Warner Bros. Records,\"LP, Album\",4,1977,1873013,Soft Rock,2019-03-14 10:22:31,Very Good Plus (VG+),Near Mint (NM or M-),\"ring wear, \"\"promo\"\" stamp\"\n"
        let item = try #require(try read(csv).first)
        #expect(item.note == "Media: Very Good Plus (VG+) · Sleeve: Near Mint (NM or M-) · Rating: 4/5 · Folder: Soft Rock · ring wear, \"promo\" stamp")
        #expect(item.catalogNumber == "K 56344" && item.label == "Warner Bros. Records" && item.format == "LP, Album")
    }

    @Test func aByteOrderMarkAndCRLFAreRead() throws {
        let csv = "\u{FEFF}" + DiscogsImportFixtures.header + "\r\nK 56344,Fleetwood Mac,Rumours,Warner,LP,0,1977,1873013,Uncategorized,,,,\r\n"
        let items = try read(csv)
        #expect(items.count == 1 && items[0].releaseID == 1873013 && items[0].note == nil)
    }

    @Test func aWantlistExportIsWanted() throws {
        let csv = "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,Notes\nK 56344,Fleetwood Mac,Rumours,Warner,LP,,1977,1873013,\nK 56344,Fleetwood Mac,Rumours,Warner,LP,,1977,1873013,\n"
        let items = try read(csv)
        #expect(items.count == 1 && items[0].list == .wantlist)
    }

    @Test func badFilesSayWhatIsWrong() throws {
        #expect(error { _ = try read("") } == .empty)
        #expect(error { _ = try read(" \n\r\n") } == .empty)
        #expect(error { _ = try DiscogsCSVReader.read(Data([0x50, 0x4B, 0x03, 0x04, 0x00, 0x00, 0xFF])) } == .notText)
        #expect(error { _ = try DiscogsCSVReader.read(Data([0x41, 0xC3, 0x28, 0x0A])) } == .notText)
        #expect(error { _ = try read("Artist,Title,Year\nCan,Tago Mago,1971\n") } == .wrongHeader(missing: ["Catalog#", "Label", "Format", "release_id"]))
        #expect(error { _ = try read(DiscogsImportFixtures.header + "\n") } == .noRecords)
        let bad = DiscogsImportFixtures.header + "\nK 1,A,B,L,LP,,1977,12,,,,,\nK 2,A,B,L,LP,,1977,r-12,,,,,\nK 3,A,B,L,LP,,1977,,,,,,\n"
        #expect(error { _ = try read(bad) } == .badReleaseID(lines: [3, 4], value: "r-12"))
        let cut = DiscogsImportFixtures.header + "\nK 1,A,B,L,LP,,1977,12,,,,,\"never closed\n"
        #expect(error { _ = try read(cut) } == .unterminatedQuote(line: 2))
        #expect(DiscogsImportError.wrongHeader(missing: ["release_id"]).message.contains("release_id"))
    }

    @Test func oneHundredThousandRowsAreRead() throws {
        var lines = [DiscogsImportFixtures.header]
        for n in 1...100_000 { lines.append("CAT \(n),Artist \(n % 700),Title \(n),Label,\"LP, Album\",,1980,\(n),Uncategorized,,,,") }
        let items = try read(lines.joined(separator: "\n"))
        #expect(items.count == 100_000)
    }
}
