import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("ArtworkCache")
struct ArtworkCacheTests {
    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("crate-artwork-\(UUID().uuidString)", isDirectory: true)
    }

    static func id(_ n: Int) -> MBID {
        try! MBID(String(format: "00000000-0000-4000-8000-%012d", n))
    }

    @Test func writesFilesNamedByMBID() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ArtworkCache(directory: directory, makeThumbnail: { data in Data(data.prefix(4)) })

        let files = try await cache.store(CoverArtFixtures.jpeg, for: Self.id(1))

        #expect(files.artwork.lastPathComponent == "00000000-0000-4000-8000-000000000001-500.jpg")
        #expect(files.thumbnail?.lastPathComponent == "00000000-0000-4000-8000-000000000001-200.jpg")
        #expect(FileManager.default.contents(atPath: files.artwork.path) == CoverArtFixtures.jpeg)
        #expect(FileManager.default.contents(atPath: files.thumbnail!.path)?.count == 4)
        // Atomic writes leave no temporary files behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
            "00000000-0000-4000-8000-000000000001-200.jpg", "00000000-0000-4000-8000-000000000001-500.jpg",
        ])
        #expect(await cache.files(for: Self.id(1)) == files)
    }

    @Test func failingThumbnailMakerStillStoresArtwork() async throws {
        struct Broken: Error {}
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ArtworkCache(directory: directory, makeThumbnail: { _ in throw Broken() })

        let files = try await cache.store(CoverArtFixtures.jpeg, for: Self.id(2))

        #expect(files.thumbnail == nil)
        #expect(FileManager.default.fileExists(atPath: files.artwork.path))
    }

    @Test func memoryHoldsAboutThirtyAndFallsBackToDisk() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ArtworkCache(directory: directory)

        for n in 0..<40 { try await cache.store(CoverArtFixtures.jpeg + Data([UInt8(n)]), for: Self.id(n)) }

        #expect(await cache.memoryCount == 30)
        #expect(await cache.data(for: Self.id(0))?.last == 0)  // evicted, read back from disk
        #expect(await cache.data(for: Self.id(39))?.last == 39)
        #expect(await cache.data(for: Self.id(99)) == nil)
    }

    @Test func lruEvictsLeastRecentlyUsed() {
        var lru = LRUCache<String, Int>(capacity: 2)
        lru.insert(1, for: "a")
        lru.insert(2, for: "b")
        _ = lru.value(for: "a")
        lru.insert(3, for: "c")
        #expect(lru.value(for: "b") == nil)
        #expect(lru.value(for: "a") == 1)
        #expect(lru.value(for: "c") == 3)
    }
}
