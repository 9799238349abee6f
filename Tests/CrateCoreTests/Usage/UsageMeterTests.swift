@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Usage meter and monthly budget")
struct UsageMeterTests {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    @Test func scansAreCountedByTierThroughTheRealPipeline() async throws {
        let world = try UsageWorld()
        let pipeline = try world.pipeline()

        // Tier 1: the model reads the cover; the artwork comes from the Cover Art Archive.
        let first = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg"), events: { _ in })
        #expect(first.entry.scan.method == .vision)
        // Tier 0: another photo of the same cover is matched offline.
        let second = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-1.jpg"), events: { _ in })
        #expect(second.entry.scan.method == .localMatch)
        // Tier 2: the first look is unsure, the search call answers.
        world.setMode(.needsSearch)
        let third = try await pipeline.scan(file: ImageFixtures.url("photos/cover-05-photo-0.jpg"), events: { _ in })
        #expect(third.entry.scan.method == .visionSearch)
        // Nothing found after both calls: counted under vision, not found.
        world.setMode(.nothing)
        await #expect(throws: ScanFailure.notIdentified) {
            _ = try await pipeline.scan(file: ImageFixtures.url("photos/cover-07-photo-0.jpg"), events: { _ in })
        }

        let summary = try world.environment.services().usage.summary()
        #expect(summary.scans[.local] == AppDatabase.TierCount(scans: 1, found: 1))
        #expect(summary.scans[.vision] == AppDatabase.TierCount(scans: 2, found: 1))
        #expect(summary.scans[.search] == AppDatabase.TierCount(scans: 1, found: 1))
        #expect(summary.providerScans == 3)
        // Every request the fake provider answered is one call, with the reply's token counts.
        let calls = world.providerRequests
        #expect(calls >= 6)
        #expect(summary.calls == calls)
        #expect(summary.inputTokens == 812 * calls && summary.outputTokens == 301 * calls)
        let searchCalls = world.server.requests.filter { $0.path == "/v1/messages" && String(decoding: $0.body, as: UTF8.self).contains("web_search") }.count
        #expect(searchCalls == 2)
        #expect(summary.models.count == 1 && summary.models.first?.searchCalls == searchCalls)
        // claude-sonnet-4-5-20250929 is priced by the "claude-sonnet-4*" entry: $3 / $15 per million, 1 cent a search.
        let expected = Double(calls) * (812 * 3 + 301 * 15) / 1_000_000 + Double(searchCalls) * 0.01
        #expect(abs(summary.estimatedCost - expected) < 1e-9)
        #expect(summary.unpricedCalls == 0)
    }

    @Test func eightyPercentGivesANoticeOncePerMonth() throws {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: directory.paths)
        let now = Self.date("2026-11-20T12:00:00Z")
        let meter = UsageMeter(database: database, prices: .init(table: .builtIn, source: "built in"), budget: UsageBudget(scans: 5),
                               calendar: Self.utc, clock: { now })
        for _ in 0..<3 { try database.recordScanUsage(tier: .vision, found: true, at: now) }
        // Local scans cost nothing and never count against the budget.
        for _ in 0..<10 { try database.recordScanUsage(tier: .local, found: true, at: now) }
        #expect(try meter.status().level == .fine)
        try database.recordScanUsage(tier: .search, found: true, at: now)

        let status = try meter.status()
        #expect(status.level == .nearlyUsed)
        #expect(status.usedText == "4 of 5 scans")
        let notice = try #require(status.notice(calendar: Self.utc))
        #expect(notice.hasPrefix("80 % of this month's budget is used (4 of 5 scans)."))
        #expect(notice.contains("1 December 2026"))
        #expect(throws: Never.self) { try meter.checkProviderAllowed() }
        // The window shows it once per month, whichever process asks first.
        let other = try AppDatabase.open(paths: directory.paths)
        #expect(try database.claimUsageNotice(month: status.month, level: .nearlyUsed))
        #expect(try !other.claimUsageNotice(month: status.month, level: .nearlyUsed))
        #expect(try other.claimUsageNotice(month: status.month.next, level: .nearlyUsed))
    }

    @Test func costBudgetCountsEstimatedDollars() throws {
        let database = try AppDatabase.inMemory()
        let now = Self.date("2026-11-20T12:00:00Z")
        // 1 million input tokens of Sonnet: $3.
        try database.recordUsage(UsageRecord(at: now, provider: "anthropic", model: "claude-sonnet-4-5", purpose: .identify,
                                             inputTokens: 1_000_000, outputTokens: 0, durationMs: 10, success: true, usedSearch: false))
        // A model the table does not know is listed, not guessed.
        try database.recordUsage(UsageRecord(at: now, provider: "openai", model: "mystery-1", purpose: .review,
                                             inputTokens: 500, outputTokens: 5, durationMs: 10, success: true, usedSearch: false))
        let meter = UsageMeter(database: database, prices: .init(table: .builtIn, source: "built in"), budget: UsageBudget(cost: 3),
                               calendar: Self.utc, clock: { now })
        let summary = try meter.summary()
        #expect(abs(summary.estimatedCost - 3) < 1e-9)
        #expect(summary.unpricedCalls == 1)
        #expect(summary.status.level == .usedUp)
        #expect(summary.status.usedText == "$3.00 of $3.00")
        #expect(throws: UsageBudgetError.self) { try meter.checkProviderAllowed() }
    }

    @Test func atOneHundredPercentProviderScansStopAndTierZeroStillAnswers() async throws {
        let world = try UsageWorld(budget: UsageBudget(scans: 1))
        let pipeline = try world.pipeline()
        _ = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg"), events: { _ in })
        #expect(try world.environment.services().usage.status().level == .usedUp)
        let callsBefore = world.providerRequests

        // A cover Crate has not seen needs the provider: refused before anything is sent.
        let error = await #expect(throws: ScanFailure.self) {
            _ = try await pipeline.scan(file: ImageFixtures.url("photos/cover-05-photo-0.jpg"), events: { _ in })
        }
        guard case .budgetUsedUp(let message) = error else {
            Issue.record("expected budgetUsedUp, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("This month's budget for the identification service is used up (1 of 1 scans) — raise it in Preferences or wait until "))
        #expect(error?.waitsForRetry == true)
        #expect(world.providerRequests == callsBefore)

        // A cover already in the crate is still recognised by tier 0.
        let local = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-1.jpg"), events: { _ in })
        #expect(local.entry.scan.method == .localMatch)
        #expect(local.entry.album.title == "Rumours")
        #expect(world.providerRequests == callsBefore)

        // Any other provider call (a review from the detail pane) is refused by the provider itself.
        let provider = try #require(try world.environment.services().provider)
        await #expect(throws: UsageBudgetError.self) {
            _ = try await provider.complete(LLMRequest(system: "s", user: "u", purpose: .review))
        }
        #expect(world.providerRequests == callsBefore)
    }

    @Test func twoConnectionsCountingAtOnceLoseNothing() async throws {
        let directory = try TemporaryDirectory()
        let first = try AppDatabase.open(paths: directory.paths)
        let second = try AppDatabase.open(paths: directory.paths)
        let perWriter = 150
        let now = Date()
        await withTaskGroup(of: Void.self) { group in
            for database in [first, second] {
                group.addTask {
                    try? await BlockingWork.run {
                        for index in 0..<perWriter {
                            try database.recordScanUsage(tier: index.isMultiple(of: 2) ? .vision : .local, found: true, at: now)
                            try database.recordUsage(UsageRecord(at: now, provider: "anthropic", model: "claude-sonnet-4-5", purpose: .identify,
                                                                 inputTokens: 10, outputTokens: 1, durationMs: 1, success: true, usedSearch: false))
                        }
                    }
                }
            }
        }
        let meter = UsageMeter(database: first, prices: .init(table: .builtIn, source: "built in"), budget: .none)
        let summary = try meter.summary()
        #expect(summary.totalScans == 2 * perWriter)
        #expect(summary.scans(.vision) == perWriter && summary.scans(.local) == perWriter)
        #expect(summary.calls == 2 * perWriter)
        #expect(summary.inputTokens == 20 * perWriter)
    }

    @Test func aNewMonthStartsAfresh() throws {
        let database = try AppDatabase.inMemory()
        try database.recordScanUsage(tier: .vision, found: true, at: Self.date("2026-11-30T23:59:59Z"))
        try database.recordScanUsage(tier: .search, found: true, at: Self.date("2026-12-01T00:00:00Z"))
        try database.recordScanUsage(tier: .local, found: false, at: Self.date("2026-12-31T23:59:59Z"))
        try database.recordScanUsage(tier: .vision, found: true, at: Self.date("2027-01-01T00:00:00Z"))
        func meter(at text: String) -> UsageMeter {
            let now = Self.date(text)
            return UsageMeter(database: database, prices: .init(table: .builtIn, source: "built in"), budget: UsageBudget(scans: 1),
                              calendar: Self.utc, clock: { now })
        }
        let november = try meter(at: "2026-11-30T23:59:59Z").summary()
        #expect(november.month.description == "2026-11" && november.totalScans == 1 && november.scans(.vision) == 1)
        #expect(november.status.level == .usedUp)
        #expect(BudgetStatus.day(november.status.resetsOn, calendar: Self.utc) == "1 December 2026")
        #expect(throws: UsageBudgetError.self) { try meter(at: "2026-11-30T23:59:59Z").checkProviderAllowed() }

        let december = try meter(at: "2026-12-01T00:00:01Z").summary()
        #expect(december.month.description == "2026-12" && december.totalScans == 2)
        #expect(december.scans[.local] == AppDatabase.TierCount(scans: 1, found: 0))
        #expect(december.status.level == .usedUp)  // The search scan uses December's one scan.
        #expect(december.status.resetsOn == Self.date("2027-01-01T00:00:00Z"))

        let january = try meter(at: "2026-12-15T00:00:00Z").summary(for: UsageMonth(parsing: "2027-01"))
        #expect(january.totalScans == 1)
        #expect(UsageMonth(parsing: "2026-12")?.next.description == "2027-01")
        for bad in ["2026-13", "2026-1", "26-11", "november", "", "2026-11-01"] { #expect(UsageMonth(parsing: bad) == nil) }
    }

    @Test func aBadPriceFileIsReportedAndTheBuiltInPricesAreUsed() throws {
        let directory = try TemporaryDirectory()
        let paths = directory.paths
        try FileManager.default.createDirectory(at: paths.configDirectory, withIntermediateDirectories: true)
        let file = paths.configDirectory.appendingPathComponent(PriceTable.fileName)
        let shipped = PriceTable.load(paths: paths)
        #expect(shipped.problem == nil)
        #expect(shipped.table == PriceTable.builtIn)  // data/provider-prices.json and the compiled copy agree.

        for (text, expected) in [
            ("{ not json", PriceTableError.malformed(path: file.path)),
            (#"{"currency":"USD","prices":[{"provider":"anthropic","model":"x"}]}"#, .malformed(path: file.path)),
            (#"{"currency":"USD","prices":[{"provider":"anthropic","model":"claude-sonnet-4*","input":-3,"output":15}]}"#,
             .invalidPrice(path: file.path, provider: "anthropic", model: "claude-sonnet-4*", field: "input")),
        ] {
            try Data(text.utf8).write(to: file)
            let loaded = PriceTable.load(paths: paths)
            #expect(loaded.problem == expected)
            #expect(loaded.table == PriceTable.builtIn)
            #expect(loaded.problem?.message.contains("built-in prices") == true)
        }

        // A valid copy wins, and prices a model the shipped table does not know.
        try Data(#"{"currency":"USD","prices":[{"provider":"openai","model":"mystery-1","input":1,"output":2}]}"#.utf8).write(to: file)
        let user = PriceTable.load(paths: paths)
        #expect(user.problem == nil && user.source == file.path)
        #expect(user.table.cost(provider: "openai", model: "mystery-1", inputTokens: 1_000_000, outputTokens: 1_000_000, usedSearch: false) == 3)
    }

    @Test func pricesMatchTheLongestPrefix() {
        let table = PriceTable.builtIn
        #expect(table.entry(provider: "anthropic", model: "claude-opus-4-5-20251101")?.input == 5)
        #expect(table.entry(provider: "anthropic", model: "claude-opus-4-1")?.input == 15)
        #expect(table.entry(provider: "openai", model: "gpt-4o-mini-2024-07-18")?.input == 0.15)
        #expect(table.entry(provider: "ollama", model: "llama3.2-vision")?.input == 0)
        #expect(table.entry(provider: "anthropic", model: "gpt-4o") == nil)
        #expect(table.cost(provider: "anthropic", model: "claude-sonnet-4-5", inputTokens: nil, outputTokens: nil, usedSearch: false) == nil)
    }
}

@Suite("Usage in Preferences and the window")
@MainActor
struct UsagePreferencesTests {
    @Test func budgetFieldsAreValidatedSavedAndShown() async throws {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: directory.paths)
        try database.recordScanUsage(tier: .vision, found: true)
        try database.recordScanUsage(tier: .local, found: true)
        let environment = AppEnvironment(paths: directory.paths, variables: [:], database: database)
        let store = PreferencesStore(environment: environment).usage

        store.setBudgetScans("lots")
        #expect(!store.save())
        #expect(store.state.value.errorMessage == BudgetInputError.scans.message)
        #expect(try environment.savedSettings().monthlyBudget == .none)

        store.setBudgetScans(" 2 ")
        store.setBudgetCost("$5,50")
        #expect(store.save())
        #expect(try environment.savedSettings().monthlyBudget == UsageBudget(scans: 2, cost: 5.5))

        await store.refreshUsage()
        let usage = try #require(store.state.value.usage)
        #expect(usage.scans == "2 — local 1, vision 1, search 0")
        #expect(usage.budget == "50 % used (1 of 2 scans)")

        // A new Preferences window reads the saved budget back.
        #expect(PreferencesStore(environment: environment).usage.state.value.budgetScans == "2")
        store.setBudgetScans("")
        store.setBudgetCost("")
        #expect(store.save())
        #expect(try environment.savedSettings().monthlyBudget == .none)
    }

    @Test func theWindowNoticeComesOncePerLevelAndMonth() throws {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: directory.paths)
        let now = UsageMeterTests.date("2026-11-20T12:00:00Z")
        let meter = UsageMeter(database: database, prices: .init(table: .builtIn, source: "built in"), budget: UsageBudget(scans: 5),
                               calendar: UsageMeterTests.utc, clock: { now })
        #expect(try meter.noticeToShow() == nil)
        for _ in 0..<4 { try database.recordScanUsage(tier: .vision, found: true, at: now) }
        #expect(try meter.noticeToShow()?.hasPrefix("80 %") == true)
        #expect(try meter.noticeToShow() == nil)
        try database.recordScanUsage(tier: .vision, found: true, at: now)
        #expect(try meter.noticeToShow()?.hasPrefix("This month's budget for the identification service is used up (5 of 5 scans)") == true)
        #expect(try meter.noticeToShow() == nil)
    }
}
