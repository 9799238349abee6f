import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore
#if canImport(Glibc)
import Glibc
#endif

/// Watching big music trees: every directory gets an inotify watch within the budget; beyond it,
/// a periodic re-index covers the rest. Each test closes its inotify instance (`stop()`): the
/// user's instances are few and the CI machine runs many processes.
@Suite("Watching the music folders", .tags(.process, .slow))
@MainActor
struct MusicFolderMonitorTests {
    /// `count` directories under `root` (`a000/b00` …, breadth first), plus a 12-deep chain `deep/1/…/12`.
    static func makeTree(_ root: String, count: Int) throws -> (directories: Int, deepest: String) {
        let fm = FileManager.default
        var made = 0
        var outer = 0
        while made < count {
            for inner in 0..<100 where made < count {
                try fm.createDirectory(atPath: root + String(format: "/a%03d/b%02d", outer, inner), withIntermediateDirectories: true)
                made += 1
            }
            outer += 1
        }
        var deepest = root + "/deep"
        for level in 1...12 { deepest += "/\(level)" }
        try fm.createDirectory(atPath: deepest, withIntermediateDirectories: true)
        // root, the a… folders, the b… folders, deep and its 12 levels.
        return (1 + outer + count + 13, deepest)
    }

    /// Polls `condition` (a state reached through the main loop) with a generous limit: fifteen
    /// minutes, as a loaded 2-core machine running the whole suite took over five to list even a
    /// 150-folder tree (the suite's image tests held the task pool).
    static func wait(_ what: Comment, seconds: Double = 900, _ condition: @MainActor () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            if Date() > deadline {
                Issue.record(what)
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A tagged track made outside the tree, then moved in (one rename: the watch sees it whole).
    static func moveTrack(into directory: String, scratch: URL, title: String) throws {
        let made = scratch.appendingPathComponent("\(title).flac").path
        try AudioFixtures.flac(at: made, tags: AudioFixtures.tags(artist: "Deep Artist", album: "Deep \(title)", title: title, track: 1))
        try FileManager.default.moveItem(atPath: made, toPath: directory + "/01 \(title).flac")
    }

    @Test("A tree of more than 4 000 folders is watched whole: a file added 13 levels down is indexed")
    func bigTreeWatchedWhole() async throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let scratch = temp.url.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let tree = try Self.makeTree(root, count: 4200)
        #expect(tree.directories > 4000)
        let database = try AppDatabase.inMemory()
        let store = MusicIndexStore(database: database)
        let state = temp.url.appendingPathComponent("state")
        // The budget is set (not half of this machine's limit) so the test means the same everywhere.
        let monitor = MusicFolderMonitor(store: store, folders: { [root] }, debounce: .milliseconds(200),
                                         environment: ["CRATE_MUSIC_WATCH_BUDGET": "20000"], stateDirectory: state, maxUserWatches: 40000)
        defer { monitor.stop() }
        monitor.start()
        try await Self.wait("the tree was not listed and watched") { monitor.status.value?.directories == tree.directories }
        let status = try #require(monitor.status.value)
        #expect(status.watched == tree.directories && status.unwatched == 0)
        #expect(status.sentence.contains("all \(tree.directories) folders"))
        // `crate music status` (another process) reads what the window watches.
        #expect(MusicWatchStatus.read(stateDirectory: state) == status)
        #expect(try database.musicIndexCounts().files == 0)

        try Self.moveTrack(into: tree.deepest, scratch: scratch, title: "Found")
        try await Self.wait("the file added deep inside was not indexed") { try database.musicIndexCounts().tracks == 1 }
        #expect(monitor.rescanUnwatched() == false, "nothing is unwatched: no periodic re-index")

        // A new folder deep inside gets its own watch after the re-index, and a file in it is found too.
        let newFolder = tree.deepest + "/New Album"
        try FileManager.default.createDirectory(atPath: newFolder, withIntermediateDirectories: true)
        try await Self.wait("the new folder was not watched") { monitor.status.value?.directories == tree.directories + 1 && monitor.status.value?.unwatched == 0 }
        try Self.moveTrack(into: newFolder, scratch: scratch, title: "Second")
        try await Self.wait("the file in the new folder was not indexed") { try database.musicIndexCounts().tracks == 2 }

        monitor.stop()
        #expect(MusicWatchStatus.read(stateDirectory: state) == nil, "a stopped window leaves no status behind")
    }

    @Test("Over the budget the rest is re-indexed periodically, and the status says so")
    func overBudgetFallsBackToRescans() async throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let scratch = temp.url.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let tree = try Self.makeTree(root, count: 150)
        let database = try AppDatabase.inMemory()
        let store = MusicIndexStore(database: database)
        let monitor = MusicFolderMonitor(store: store, folders: { [root] }, debounce: .milliseconds(200),
                                         environment: ["CRATE_MUSIC_WATCH_BUDGET": "40", "CRATE_MUSIC_RESCAN_SECONDS": "3600"],
                                         maxUserWatches: 80)
        defer { monitor.stop() }
        monitor.start()
        try await Self.wait("the tree was not listed") { monitor.status.value?.directories == tree.directories }
        let status = try #require(monitor.status.value)
        #expect(status.watched == 40 && status.unwatched == tree.directories - 40)
        #expect(status.sentence == "Watched for changes: 40 of \(tree.directories) folders (Crate's share of the system's inotify watches is 40 of 80); the other \(tree.directories - 40) are re-indexed every 3600 s.")
        await store.settle()
        let runs = store.state.value.completed

        // The deepest folder comes last breadth first: it has no watch. The periodic pass finds the file.
        try Self.moveTrack(into: tree.deepest, scratch: scratch, title: "Unwatched")
        #expect(monitor.rescanUnwatched())
        await store.settle()
        #expect(store.state.value.completed > runs)
        #expect(try database.musicIndexCounts().tracks == 1)
    }

    @Test("Watches follow the list and the budget; a closed watcher watches nothing")
    func watcherBudgetAndClose() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.path
        let tree = try Self.makeTree(root, count: 20)
        let directories = DirectoryTree.directories(under: [root])
        #expect(directories.count == tree.directories)
        #expect(directories.first == root && directories.last == tree.deepest, "breadth first, roots first")
        let watcher = try DirectoryWatcher { _ in }
        defer { watcher.close() }
        var result = watcher.watch(directories, budget: 10)
        #expect(result.watched == 10 && result.unwatched == Array(directories.dropFirst(10)) && !result.kernelLimitReached)
        result = watcher.watch(directories, budget: 1000)
        #expect(result.watched == directories.count && result.unwatched.isEmpty)
        result = watcher.watch(Array(directories.prefix(5)), budget: 1000)
        #expect(result.watched == 5 && watcher.count == 5, "directories no longer listed give their watches back")
        result = watcher.watch(directories, budget: 0)
        #expect(result.watched == 0 && watcher.count == 0)
        watcher.close()
        #expect(watcher.watch(directories, budget: 1000).watched == 0)
        // A missing folder is simply not listed.
        #expect(DirectoryTree.directories(under: [root + "/no-such-folder"]).isEmpty)
    }

    @Test("The budget is half the user's limit unless set; a stale status is ignored")
    func budgetAndStaleStatus() throws {
        #expect(DirectoryWatcher.budget(environment: [:], maxUserWatches: 8192) == 4096)
        #expect(DirectoryWatcher.budget(environment: [:], maxUserWatches: nil) == 4000)
        #expect(DirectoryWatcher.budget(environment: ["CRATE_MUSIC_WATCH_BUDGET": "123"], maxUserWatches: 8192) == 123)
        #expect(DirectoryWatcher.budget(environment: ["CRATE_MUSIC_WATCH_BUDGET": "lots"], maxUserWatches: 8192) == 4096)
        let temp = try TemporaryDirectory()
        let proc = temp.url.appendingPathComponent("max_user_watches")
        try Data("65536\n".utf8).write(to: proc)
        #expect(DirectoryWatcher.maxUserWatches(procFile: proc.path) == 65536)
        try Data("garbage".utf8).write(to: proc)
        #expect(DirectoryWatcher.maxUserWatches(procFile: proc.path) == nil)

        // A status left by a window whose process is gone says nothing.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let stale = MusicWatchStatus(pid: child.processIdentifier, directories: 10, watched: 10, unwatched: 0, budget: 10,
                                     maxUserWatches: 20, kernelLimitReached: false, rescanSeconds: 120)
        stale.write(stateDirectory: temp.url)
        #expect(MusicWatchStatus.read(stateDirectory: temp.url) == nil)
        var mine = stale
        mine.pid = getpid()
        mine.write(stateDirectory: temp.url)
        #expect(MusicWatchStatus.read(stateDirectory: temp.url) == mine)
        mine.kernelLimitReached = true
        mine.unwatched = 4
        mine.watched = 6
        #expect(mine.sentence.contains("used up by other programs") && mine.sentence.contains("6 of 10"))
        // No inotify instance at all: the status says why, in the error's own sentence.
        mine.problem = UserMessage.text(for: DirectoryWatcherError.unavailable(errno: EMFILE))
        #expect(mine.sentence.hasPrefix("The music folders cannot be watched for changes: other programs use all"))
    }
}
