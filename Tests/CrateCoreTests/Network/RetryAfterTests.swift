import CrateCore
import Foundation
import Testing

/// RELIABILITY.md scenario 7: every `Retry-After` shape is parsed or clamped to [0, 1 day]; long waits are kept as said, so the user can be told.
@Suite("Retry-After")
struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)  // Thu, 28 May 2026 20:26:40 GMT

    @Test(arguments: [
        ("3", 3.0),
        (" 3 ", 3.0),
        ("0", 0.0),
        ("1.5", 1.5),
        ("-5", 0.0),
        ("120", 120.0),
        ("121", 121.0),
        ("600", 600.0),
        ("999999999999999999999999", 86_400.0),
        ("Thu, 28 May 2026 20:26:50 GMT", 10.0),
        ("Thursday, 28-May-26 20:27:10 GMT", 30.0),
        ("Thu May 28 20:26:45 2026", 5.0),
        ("Thu, 28 May 2026 20:00:00 GMT", 0.0),
        ("Thu, 28 May 2026 20:36:40 GMT", 600.0),
        ("Sat, 30 May 2026 20:26:40 GMT", 86_400.0),
    ])
    func parsesOrClamps(value: String, expected: Double) {
        #expect(RetryAfter.parse(value, now: Self.now) == expected)
    }

    @Test(arguments: ["", "soon", "3 seconds", "1e3", "0x10", "NaN", "inf", "Thu, 99 Foo 2026", "--3", "3.5.1"])
    func garbageIsNil(value: String) {
        #expect(RetryAfter.parse(value, now: Self.now) == nil)
    }

    @Test func millisecondsHeaderWins() {
        let response = HTTPResponse(status: 429, headers: ["retry-after-ms": "1500", "Retry-After": "60"], url: URL(string: "http://x")!)
        #expect(RetryAfter.delay(in: response, now: Self.now) == 1.5)
    }
}
