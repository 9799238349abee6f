import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Deep music folders")
struct DeepFolderTests {
    /// Bug: a music folder nested about 1 500 levels deep (a 3 KB path, well under PATH_MAX)
    /// crashed `crate music scan`, `crate cds` and the window at start-up with SIGSEGV: the walker
    /// recursed once per level and ran off the thread's stack. The walk now keeps its own stack
    /// and reports the folders below its depth limit instead of entering them.
    @Test("A folder nested 1 500 levels deep is walked to the depth limit and the rest reported")
    func fifteenHundredLevels() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let levels = 1_500
        var path = root
        for level in 1...levels {
            path += "/d"
            if level == 10 {
                try AudioFixtures.flac(at: path + "/near.flac")
            }
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: path + "/CDs.m3u"))
        #expect(path.utf8.count > 3_000)

        // A thread with a small stack, as the window's workers have: the recursive walk crashed here.
        let walk = try onSmallStack { MusicFolderWalker.walk([root]) }
        #expect(walk.deepestLevel == MusicFolderWalker.maxDepth)
        #expect(walk.tooDeep.count == 1)
        #expect(walk.tooDeep.first?.hasSuffix(String(repeating: "/d", count: MusicFolderWalker.maxDepth + 1)) == true)
        #expect(walk.files.map { ($0.path as NSString).lastPathComponent } == ["near.flac"])

        // The index and a second (cached) scan go the same way, and say what they left out.
        let database = try AppDatabase.inMemory()
        let report = try onSmallStack { try MusicIndexer.scan(folders: [root], database: database) }
        #expect(report.files == 1)
        #expect(report.tooDeepFolders.count == 1)
        #expect(report.deepestLevel == MusicFolderWalker.maxDepth)
        let again = try onSmallStack { try MusicIndexer.scan(folders: [root], database: database) }
        #expect(again.unchanged == 1)
        #expect(again.tooDeepFolders.count == 1)
    }

    @Test("A deeper limit walks the whole 1 500 levels without recursion")
    func wholeTreeWithALargerLimit() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let path = root + String(repeating: "/d", count: 1_500)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: path + "/CDs.m3u"))
        let walk = try onSmallStack { MusicFolderWalker.walk([root], maxDepth: 2_000) }
        #expect(walk.deepestLevel == 1_500)
        #expect(walk.tooDeep.isEmpty)
        #expect(walk.files.count == 1)
    }

    /// Runs `work` on a thread with a 256 KB stack and waits for it.
    private func onSmallStack<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try work() }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        done.wait()
        guard let result = box.result else { throw CrateError.notFound("Thread result") }
        return try result.get()
    }
}

/// Written by the worker thread before it signals, read after the wait.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
