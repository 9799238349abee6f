import CrateCore
import Foundation
import Testing

@Suite("crate usage", .tags(.process))
struct UsageCommandTests {
    @Test func setsTheBudgetAndPrintsTheMonth() async throws {
        let cli = try CLIRunner()
        let set = try await cli.run(["usage", "--budget-scans", "40", "--budget-cost", "2.5", "--json"])
        #expect(set.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any])
        let budget = try #require(object["budget"] as? [String: Any])
        #expect(budget["scans"] as? Int == 40 && budget["cost"] as? Double == 2.5 && budget["level"] as? String == "fine")
        #expect((object["scans"] as? [String: Int]) == ["local": 0, "vision": 0, "search": 0])

        let plain = try await cli.run(["usage"])
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("Budget: 40 scans and $2.50 a month"))

        let none = try await cli.run(["usage", "--no-budget"])
        #expect(none.stdout.contains("Budget: none"))

        let past = try await cli.run(["usage", "--month", "2025-01", "--json"])
        #expect(past.stdout.contains(#""month":"2025-01""#))
    }

    @Test func badInputIsAUsageErrorOrAClearWarning() async throws {
        let cli = try CLIRunner()
        for arguments in [["usage", "--month", "2026-13"], ["usage", "--budget-scans", "0"], ["usage", "--budget-cost", "-1"],
                          ["usage", "--no-budget", "--budget-scans", "3"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 64, "\(arguments)")
        }
        let config = cli.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{ nope".utf8).write(to: config.appendingPathComponent("provider-prices.json"))
        let result = try await cli.run(["usage"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("is not a valid price table"))
        #expect(result.stdout.contains("built-in prices"))
    }
}
