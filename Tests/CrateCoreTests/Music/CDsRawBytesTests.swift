import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("CDs playlist lines that are not UTF-8")
struct CDsRawBytesTests {
    /// Bug: a `CDs.m3u` line with non-UTF-8 bytes (a Latin-1 file name) was decoded with
    /// replacement characters and reported "file not found" although the file was indexed under
    /// those bytes. Lines are now read as bytes and matched on the raw bytes.
    @Test("A Latin-1 entry matches the indexed file with the same bytes")
    func latin1EntryMatches() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let source = try AudioFixtures.flac(at: root + "/source.flac", tags: AudioFixtures.tags(artist: "Caf\u{E9}", album: "Bytes", title: "One", track: 1))
        let name = Array("Caf".utf8) + [0xE9] + Array(" Tacuba.flac".utf8)
        let rawPath = PathBytes.bytes(of: root) + [0x2F] + name
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(rawPath.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
        close(fd)
        try FileManager.default.removeItem(atPath: source)
        let database = try AppDatabase.inMemory()
        #expect(try MusicIndexer.scan(folders: [root], database: database).tracks == 1)

        // A BOM, CRLF line ends, a comment, the Latin-1 line (relative) and the same file by absolute path.
        let playlist = [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\r\n#EXTINF:1,Caf".utf8) + [0xE9] + Array("\r\n  ".utf8) + name
            + Array("  \r\n".utf8) + rawPath + [0x0A]
        try Data(playlist).write(to: URL(fileURLWithPath: root + "/CDs.m3u"))

        let wallet = try CDWalletBuilder.build(folders: [root], database: database)
        #expect(wallet.entries.map(\.problem) == [nil, nil])
        #expect(wallet.resolvedCount == 2)
        #expect(wallet.discs.map(\.title) == ["Bytes"])
        #expect(wallet.entries.allSatisfy { PathBytes.bytes(of: $0.path ?? "") == rawPath })
    }
}
