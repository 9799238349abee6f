import ArgumentParser
import CrateCore
import Foundation

/// `crate usage [--json] [--month YYYY-MM]`: the usage meter; `--budget-scans N`,
/// `--budget-cost DOLLARS` and `--no-budget` set the monthly budget (saved in settings.json, the
/// same field Preferences edits).
struct UsageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Show this month's scans by tier, provider calls, tokens and estimated cost; set a monthly budget.",
        discussion: """
        Months are calendar months in your time zone. Costs are estimates from the price table \
        (provider-prices.json in Crate's data folder; a copy in the config folder wins). With a \
        budget, Crate says so at 80 %, and at 100 % scans that need the identification service \
        stop until the next month, while covers already in your crate are still recognised.
        """
    )

    @Flag(help: "Print the month as JSON.")
    var json = false

    @Option(help: "The month to show, as YYYY-MM (default: this month).")
    var month: String?

    @Option(name: .customLong("budget-scans"), help: "Set the monthly budget to N scans that need the identification service.")
    var budgetScans: Int?

    @Option(name: .customLong("budget-cost"), help: "Set the monthly budget to an estimated cost in dollars.")
    var budgetCost: Double?

    @Flag(name: .customLong("no-budget"), help: "Remove the monthly budget.")
    var noBudget = false

    func validate() throws {
        if let month, UsageMonth(parsing: month) == nil {
            throw ValidationError("--month must be a month as YYYY-MM, such as 2026-11 (not \(month)).")
        }
        if let budgetScans { try OptionRange.check(budgetScans, in: OptionRange.budgetScans, name: "--budget-scans") }
        if let budgetCost, !(budgetCost.isFinite && budgetCost > 0 && budgetCost <= 1_000_000) {
            throw ValidationError("--budget-cost must be an amount of dollars above 0 and up to 1000000 (not \(budgetCost)).")
        }
        if noBudget, budgetScans != nil || budgetCost != nil {
            throw ValidationError("--no-budget cannot be combined with --budget-scans or --budget-cost.")
        }
    }

    func run() async throws {
        do {
            let environment = try openEnvironment()
            if noBudget || budgetScans != nil || budgetCost != nil {
                var saved = try environment.savedSettings()
                if noBudget { saved.monthlyBudget = .none }
                if let budgetScans { saved.monthlyBudget.scans = budgetScans }
                if let budgetCost { saved.monthlyBudget.cost = budgetCost }
                try saved.save(paths: environment.paths)
            }
            let meter = try environment.services(offline: true).usage
            let summary = try meter.summary(for: month.flatMap(UsageMonth.init(parsing:)))
            if json {
                print(UsageJSON.encode(summary, calendar: meter.calendar))
            } else {
                for line in summary.lines(calendar: meter.calendar) { Terminal.say(line) }
            }
            if let problem = summary.priceProblem, json { Terminal.warn(problem.message) }
        } catch {
            throw fail(error)
        }
    }

    /// The stderr line after a scan or a batch run once 80 % of the budget is used.
    static func warnIfNearBudget(_ environment: AppEnvironment) {
        guard let meter = try? environment.services(offline: true).usage,
              let notice = (try? meter.status())?.notice(calendar: meter.calendar) else { return }
        Terminal.warn(notice)
    }
}

/// `crate usage --json`.
enum UsageJSON {
    struct Month: Encodable {
        var month: String
        var scans: [String: Int]
        var scans_found: [String: Int]
        var provider_calls: Int
        var failed_calls: Int
        var input_tokens: Int
        var output_tokens: Int
        var estimated_cost: Double
        var currency: String
        var unpriced_calls: Int
        var models: [Model]
        var budget: Budget?
        var prices: String
        var price_problem: String?
    }

    struct Model: Encodable {
        var provider: String
        var model: String
        var calls: Int
        var failed_calls: Int
        var search_calls: Int
        var input_tokens: Int
        var output_tokens: Int
        var estimated_cost: Double?
    }

    struct Budget: Encodable {
        var scans: Int?
        var cost: Double?
        var used_fraction: Double
        var level: String
        var resets_on: String
    }

    static func encode(_ summary: UsageSummary, calendar: Calendar) -> String {
        let day = DateFormatter()
        day.calendar = calendar
        day.timeZone = calendar.timeZone
        day.locale = Locale(identifier: "en_US_POSIX")
        day.dateFormat = "yyyy-MM-dd"
        let month = Month(
            month: summary.month.description,
            scans: Dictionary(uniqueKeysWithValues: ScanTier.allCases.map { ($0.rawValue, summary.scans($0)) }),
            scans_found: Dictionary(uniqueKeysWithValues: ScanTier.allCases.map { ($0.rawValue, summary.scans[$0]?.found ?? 0) }),
            provider_calls: summary.calls, failed_calls: summary.failedCalls,
            input_tokens: summary.inputTokens, output_tokens: summary.outputTokens,
            estimated_cost: (summary.estimatedCost * 10_000).rounded() / 10_000, currency: "USD", unpriced_calls: summary.unpricedCalls,
            models: summary.models.map {
                Model(provider: $0.provider, model: $0.model, calls: $0.calls, failed_calls: $0.failedCalls, search_calls: $0.searchCalls,
                      input_tokens: $0.inputTokens, output_tokens: $0.outputTokens, estimated_cost: $0.cost.map { ($0 * 10_000).rounded() / 10_000 })
            },
            budget: summary.budget.isSet
                ? Budget(scans: summary.budget.scans, cost: summary.budget.cost, used_fraction: (summary.status.fraction * 1000).rounded() / 1000,
                         level: summary.status.level.rawValue, resets_on: day.string(from: summary.status.resetsOn))
                : nil,
            prices: summary.priceSource, price_problem: summary.priceProblem?.message
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(month)).map(Terminal.json) ?? "{}"
    }
}
