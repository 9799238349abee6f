import Foundation

/// The Crate Dial's five positions, from personal-heavy to random-heavy.
public enum CrateDialPosition: String, CaseIterable, Codable, Sendable {
    case myCrate = "my-crate"
    case curated
    case mixed
    case deepDig = "deep-dig"
    case mystery

    public static let standard = CrateDialPosition.mixed
}

/// The dial's weight tables and sentences, read from one data file (`data/crate-dial.json`).
public struct CrateDialTable: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var position: CrateDialPosition
        public var title: String
        /// One sentence the dial control shows under the title.
        public var sentence: String
        /// The title in the user's language (`title` is the English of the data file).
        public var displayTitle: String { L10n.data(title, file: CrateDialTable.fileName) }
        /// The sentence in the user's language.
        public var displaySentence: String { L10n.data(sentence, file: CrateDialTable.fileName) }
        /// Share of the wall per signal (normalised when used).
        public var weights: [WallSignal: Double]

        /// The weights in signal order, for counting and interleaving.
        public var orderedWeights: [(WallSignal, Double)] {
            WallSignal.allCases.map { ($0, max(0, weights[$0] ?? 0)) }
        }
    }

    public static let fileName = "crate-dial.json"

    public let entries: [Entry]
    public let defaultPosition: CrateDialPosition

    public func entry(_ position: CrateDialPosition) -> Entry {
        entries.first { $0.position == position }!
    }

    /// Reads the table from the data folder (see `DataFiles`).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CrateDialTable {
        guard let url = DataFiles.url(for: fileName, environment: environment) else { throw WallError.dataFileMissing(fileName) }
        return try load(from: url)
    }

    /// Every position must be there once, with a title, a sentence and at least one positive weight.
    public static func load(from url: URL) throws -> CrateDialTable {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw WallError.dataFileMissing(url.path) }
        return try parse(data, name: url.path)
    }

    public static func parse(_ data: Data, name: String = fileName) throws -> CrateDialTable {
        struct File: Decodable {
            struct Position: Decodable {
                let id: String
                let title: String
                let sentence: String
                let weights: [String: Double]
            }
            let positions: [Position]
            let `default`: String?
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw WallError.dataFileInvalid(name: name, reason: "it is not the expected JSON")
        }
        var entries: [Entry] = []
        for position in file.positions {
            guard let kind = CrateDialPosition(rawValue: position.id) else {
                throw WallError.dataFileInvalid(name: name, reason: "it names an unknown dial position \"\(position.id)\"")
            }
            var weights: [WallSignal: Double] = [:]
            for (key, value) in position.weights {
                guard let signal = WallSignal(rawValue: key) else {
                    throw WallError.dataFileInvalid(name: name, reason: "it names an unknown signal \"\(key)\"")
                }
                guard value.isFinite, value >= 0 else {
                    throw WallError.dataFileInvalid(name: name, reason: "a weight of \(position.id) is not a positive number")
                }
                weights[signal] = value
            }
            guard weights.values.contains(where: { $0 > 0 }), !position.sentence.isEmpty, !position.title.isEmpty else {
                throw WallError.dataFileInvalid(name: name, reason: "\(position.id) has no weights, title or sentence")
            }
            entries.append(Entry(position: kind, title: position.title, sentence: position.sentence, weights: weights))
        }
        for position in CrateDialPosition.allCases where entries.filter({ $0.position == position }).count != 1 {
            throw WallError.dataFileInvalid(name: name, reason: "it must list \(position.rawValue) exactly once")
        }
        let ordered = CrateDialPosition.allCases.map { p in entries.first { $0.position == p }! }
        return CrateDialTable(entries: ordered, defaultPosition: file.default.flatMap(CrateDialPosition.init(rawValue:)) ?? .standard)
    }
}
