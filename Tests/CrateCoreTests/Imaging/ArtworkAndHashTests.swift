import CrateCore
import Foundation
import Testing

@Suite("Artwork and hashes")
struct ArtworkAndHashTests {
    let preparer = ImagePreparer()

    @Test func artworkMakes500And200() throws {
        let artwork = try preparer.prepareArtwork(ImageFixtures.data("covers/cover-03.jpg"))
        let large = try JPEGCodec.probe(artwork.large)
        let thumb = try JPEGCodec.probe(preparer.thumbnail(fromArtwork: ImageFixtures.data("covers/cover-03.jpg")))
        #expect(large.width == 500 && large.height == 500)
        #expect(thumb.width == 200 && thumb.height == 200)
    }

    @Test func coverHashIsStableAcrossReencoding() throws {
        let data = try ImageFixtures.data("covers/cover-05.jpg")
        let original = try preparer.prepareArtwork(data).hash
        let reencoded = try preparer.prepareArtwork(preparer.prepareArtwork(data).large).hash
        #expect(original.dct256.distance(to: reencoded.dct256) <= 16)
        #expect((original.pHash ^ reencoded.pHash).nonzeroBitCount <= 6)
    }

    @Test func hash256RoundTripsThroughBytes() {
        let hash = Hash256(0x0123_4567_89AB_CDEF, 42, .max, 0)
        #expect(Hash256(bytes: hash.bytes) == hash)
        #expect(Hash256(bytes: [1, 2, 3]) == nil)
        #expect(hash.distance(to: hash) == 0)
        #expect(hash.distance(to: Hash256(0x0123_4567_89AB_CDEF, 43, .max, 1)) == 2)
    }

    @Test func coverHashesPersistAndCascade() throws {
        // Given
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: Album(title: "T", artist: "A"), method: .localMatch)
        let albumID = try #require(entry.album.id)
        let hash = try preparer.prepareArtwork(ImageFixtures.data("covers/cover-00.jpg")).hash
        // When
        try db.saveCoverHash(hash, forAlbum: albumID)
        // Then
        #expect(try db.coverHash(forAlbum: albumID) == hash)
        #expect(try db.allCoverHashes().map(\.albumID) == [albumID])
        #expect(AppDatabase.knownMigrations.contains("v2-cover-hashes"))
        #expect(try db.schemaVersion() == AppDatabase.knownMigrations.last)
    }
}
