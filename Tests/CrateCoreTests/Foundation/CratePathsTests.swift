import Foundation
import Testing
@testable import CrateCore

@Suite("CratePaths")
struct CratePathsTests {
    @Test func followsXDGVariables() {
        let paths = CratePaths(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache",
            "XDG_CONFIG_HOME": "/x/config", "XDG_STATE_HOME": "/x/state",
        ])
        #expect(paths.dataDirectory.path == "/x/data/crate")
        #expect(paths.cacheDirectory.path == "/x/cache/crate")
        #expect(paths.configDirectory.path == "/x/config/crate")
        #expect(paths.stateDirectory.path == "/x/state/crate")
        #expect(paths.databaseURL.path == "/x/data/crate/crate.sqlite")
        #expect(paths.artworkDirectory.path == "/x/cache/crate/artwork")
    }

    @Test func defaultsUnderHomeAndIgnoresRelativeXDG() {
        let paths = CratePaths(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "relative/path"])
        #expect(paths.dataDirectory.path == "/home/u/.local/share/crate")
        #expect(paths.cacheDirectory.path == "/home/u/.cache/crate")
        #expect(paths.configDirectory.path == "/home/u/.config/crate")
        #expect(paths.stateDirectory.path == "/home/u/.local/state/crate")
    }

    @Test func crateOverridesWin() {
        let paths = CratePaths(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/x/data",
            "CRATE_DATA_DIR": "/t/d", "CRATE_CACHE_DIR": "/t/c", "CRATE_CONFIG_DIR": "/t/k", "CRATE_STATE_DIR": "/t/s",
        ])
        #expect(paths.dataDirectory.path == "/t/d")
        #expect(paths.cacheDirectory.path == "/t/c")
        #expect(paths.configDirectory.path == "/t/k")
        #expect(paths.stateDirectory.path == "/t/s")
    }

    @Test func unwritableDirectoryIsNamedInTheError() throws {
        let dir = try TemporaryDirectory()
        // A regular file where a directory should be: nothing can be created under it, even as root.
        let blocker = dir.url.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let target = blocker.appendingPathComponent("crate")
        #expect(throws: CrateError.directoryNotWritable(target.path)) {
            try CratePaths.ensureWritable(target)
        }
        #expect(CrateError.directoryNotWritable(target.path).message.contains(target.path))
    }

    @Test func sortKeyStripsLeadingArticles() {
        #expect(SortKey.artist("The Beatles") == "beatles")
        #expect(SortKey.artist("A Tribe Called Quest") == "tribe called quest")
        #expect(SortKey.artist("The The") == "the")
        #expect(SortKey.artist("Björk") == "bjork")
        #expect(SortKey.artist("Theatre of Tragedy") == "theatre of tragedy")
    }
}
