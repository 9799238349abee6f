import Foundation

/// What provider calls cost, per provider and model, in US dollars per million tokens (plus an
/// optional price per web search). Crate ships one (`data/provider-prices.json`); a copy in the
/// config directory (`provider-prices.json`) wins, so the user can correct a price or add a model.
public struct PriceTable: Equatable, Sendable, Codable {
    public struct Entry: Equatable, Sendable, Codable {
        public var provider: String
        /// An exact model name, or a prefix ending in `*` ("claude-sonnet-4*", "*").
        public var model: String
        /// Dollars per million input tokens.
        public var input: Double
        /// Dollars per million output tokens.
        public var output: Double
        /// Dollars per call that used web search, on top of the tokens.
        public var searchCall: Double?

        public init(provider: String, model: String, input: Double, output: Double, searchCall: Double? = nil) {
            self.provider = provider
            self.model = model
            self.input = input
            self.output = output
            self.searchCall = searchCall
        }
    }

    public var currency: String
    /// When the prices were last checked (free text, shown by `crate usage`).
    public var checked: String?
    public var prices: [Entry]

    public init(currency: String = "USD", checked: String? = nil, prices: [Entry]) {
        self.currency = currency
        self.checked = checked
        self.prices = prices
    }

    public static let fileName = "provider-prices.json"

    /// The price of `model` at `provider`: an exact entry first, else the longest matching prefix
    /// entry (`name*`). Nil when the table does not know it (its cost is then "not priced").
    public func entry(provider: String, model: String) -> Entry? {
        let candidates = prices.filter { $0.provider == provider }
        if let exact = candidates.first(where: { $0.model == model }) { return exact }
        return candidates
            .filter { $0.model.hasSuffix("*") && model.hasPrefix(String($0.model.dropLast())) }
            .max { $0.model.count < $1.model.count }
    }

    /// Dollars for one call, nil when the model is not priced or the tokens are unknown.
    public func cost(provider: String, model: String, inputTokens: Int?, outputTokens: Int?, usedSearch: Bool) -> Double? {
        guard let entry = entry(provider: provider, model: model) else { return nil }
        guard inputTokens != nil || outputTokens != nil else { return nil }
        let tokens = Double(inputTokens ?? 0) * entry.input / 1_000_000 + Double(outputTokens ?? 0) * entry.output / 1_000_000
        return tokens + (usedSearch ? entry.searchCall ?? 0 : 0)
    }

    /// Reads and checks a price file.
    public static func decode(_ data: Data, path: String) throws -> PriceTable {
        let table: PriceTable
        do {
            table = try JSONDecoder().decode(PriceTable.self, from: data)
        } catch {
            throw PriceTableError.malformed(path: path)
        }
        for entry in table.prices {
            for (name, value) in [("input", entry.input), ("output", entry.output), ("searchCall", entry.searchCall ?? 0)] {
                guard value.isFinite, value >= 0, value < 100_000 else {
                    throw PriceTableError.invalidPrice(path: path, provider: entry.provider, model: entry.model, field: name)
                }
            }
            guard !entry.provider.isEmpty, !entry.model.isEmpty else {
                throw PriceTableError.invalidPrice(path: path, provider: entry.provider, model: entry.model, field: "model")
            }
        }
        return table
    }

    /// The table in force and, when the user's copy could not be used, why (the built-in table
    /// is used instead; nothing else changes).
    public struct Loaded: Sendable, Equatable {
        public var table: PriceTable
        /// Where `table` came from: the user's file, the shipped file, or "built in".
        public var source: String
        public var problem: PriceTableError?
    }

    /// The user's copy (`<config>/provider-prices.json`) if it is there and valid; else the
    /// shipped file (`data/provider-prices.json`); else the copy compiled into Crate.
    public static func load(paths: CratePaths, environment: [String: String] = ProcessInfo.processInfo.environment) -> Loaded {
        var problem: PriceTableError?
        let user = paths.configDirectory.appendingPathComponent(fileName)
        if FileManager.default.fileExists(atPath: user.path) {
            do {
                guard let data = FileManager.default.contents(atPath: user.path) else { throw PriceTableError.unreadable(path: user.path) }
                return Loaded(table: try decode(data, path: user.path), source: user.path, problem: nil)
            } catch let error as PriceTableError {
                problem = error
                Log.error("price table: \(error.message)")
            } catch {
                problem = .unreadable(path: user.path)
            }
        }
        if let shipped = DataFiles.url(for: fileName, environment: environment),
           let data = FileManager.default.contents(atPath: shipped.path),
           let table = try? decode(data, path: shipped.path) {
            return Loaded(table: table, source: shipped.path, problem: problem)
        }
        return Loaded(table: builtIn, source: "built in", problem: problem)
    }

    /// The same prices as `data/provider-prices.json` (a test keeps them equal), for an install
    /// whose data folder is missing.
    public static let builtIn = PriceTable(currency: "USD", checked: "2026-11", prices: [
        Entry(provider: "anthropic", model: "claude-sonnet-4*", input: 3, output: 15, searchCall: 0.01),
        Entry(provider: "anthropic", model: "claude-opus-4-5*", input: 5, output: 25, searchCall: 0.01),
        Entry(provider: "anthropic", model: "claude-opus-4*", input: 15, output: 75, searchCall: 0.01),
        Entry(provider: "anthropic", model: "claude-haiku-4*", input: 1, output: 5, searchCall: 0.01),
        Entry(provider: "anthropic", model: "claude-3-5-haiku*", input: 0.8, output: 4, searchCall: 0.01),
        Entry(provider: "openai", model: "gpt-4o-mini*", input: 0.15, output: 0.6),
        Entry(provider: "openai", model: "gpt-4o*", input: 2.5, output: 10),
        Entry(provider: "openai", model: "gpt-4.1-mini*", input: 0.4, output: 1.6),
        Entry(provider: "openai", model: "gpt-4.1*", input: 2, output: 8),
        Entry(provider: "openai", model: "gpt-5-mini*", input: 0.25, output: 2),
        Entry(provider: "openai", model: "gpt-5*", input: 1.25, output: 10),
        Entry(provider: "ollama", model: "*", input: 0, output: 0),
    ])
}

/// Why the user's price file was not used (the built-in prices are used instead).
public enum PriceTableError: Error, Equatable, Sendable {
    case unreadable(path: String)
    case malformed(path: String)
    case invalidPrice(path: String, provider: String, model: String, field: String)

    public var message: String {
        switch self {
        case .unreadable(let path):
            return L10n.tr("The price file %@ could not be read, so Crate estimates costs with its built-in prices.", path)
        case .malformed(let path):
            return L10n.tr("The price file %@ is not a valid price table (JSON with \"prices\": [{\"provider\", \"model\", \"input\", \"output\"}]), so Crate estimates costs with its built-in prices. Fix or remove it.", path)
        case .invalidPrice(let path, let provider, let model, let field):
            return L10n.tr("The price file %@ has an impossible %@ for %@ %@ (prices are dollars per million tokens, 0 or more), so Crate estimates costs with its built-in prices. Fix or remove it.", path, field, provider, model)
        }
    }
}

extension PriceTableError: LocalizedError {
    public var errorDescription: String? { message }
}
