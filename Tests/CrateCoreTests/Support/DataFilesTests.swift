import Foundation
import Testing
@testable import CrateCore

@Suite("Data files")
struct DataFilesTests {
    @Test func theOverrideComesFirstThenTheInstallThenTheSourceTree() throws {
        let dir = try TemporaryDirectory()
        let places = DataFiles.directories(environment: ["CRATE_DATA_FILES": dir.url.path])
        #expect(places.count == 3)
        #expect(places[0].standardizedFileURL.path == dir.url.standardizedFileURL.path)
        #expect(places[1].path.hasSuffix("/share/crate"))
        #expect(places[2].path.hasSuffix("/data"))
        #expect(DataFiles.directories(environment: [:]).count == 2)
    }

    @Test func eachFileComesFromTheFirstPlaceThatHasIt() throws {
        let dir = try TemporaryDirectory()
        try Data("{}".utf8).write(to: dir.url.appendingPathComponent("genres.json"))
        let environment = ["CRATE_DATA_FILES": dir.url.path]
        #expect(DataFiles.url(for: "genres.json", environment: environment)?.deletingLastPathComponent().standardizedFileURL.path
                    == dir.url.standardizedFileURL.path)
        // Not in the override: the source tree's copy.
        let css = try #require(DataFiles.url(for: "style.css", environment: environment))
        #expect(css.path.hasSuffix("/data/style.css"))
        #expect(DataFiles.url(for: "prompts/review-v1.md", environment: [:]) != nil)
        #expect(DataFiles.url(for: "no-such-file", environment: environment) == nil)
    }
}
