import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("CRATE_WALL_TIMEOUT")
struct WallTimeoutSettingTests {
    static func timeout(_ value: String?, given: TimeInterval? = nil) throws -> TimeInterval {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: directory.paths)
        var variables = ["CRATE_SECRET_SERVICE": "off", "CRATE_LISTENBRAINZ_URL": "http://127.0.0.1:9", "CRATE_MUSICBRAINZ_URL": "http://127.0.0.1:9/ws/2"]
        variables["CRATE_WALL_TIMEOUT"] = value
        let environment = AppEnvironment(paths: directory.paths, variables: variables, database: database,
                                         transport: CurlHTTPClient(), limiter: RateLimiter(clock: TestClock()))
        return try environment.services().wallService(timeout: given).builder.timeout
    }

    @Test func fiveSecondsUnlessSet() throws {
        #expect(try Self.timeout(nil) == 5)
        #expect(try Self.timeout("60") == 60)
        #expect(try Self.timeout("0.5") == 0.5)
    }

    @Test func anArgumentWins() throws {
        #expect(try Self.timeout("60", given: 2) == 2)
    }

    @Test(arguments: ["", "abc", "0", "-3", "inf", "nan", "5s"])
    func aBadValueKeepsFiveSeconds(_ value: String) throws {
        #expect(try Self.timeout(value) == 5)
    }
}
