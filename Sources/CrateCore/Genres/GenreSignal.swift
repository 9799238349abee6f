import Foundation

/// The six signals a genre feed blends, in the order its dial table lists them.
public enum GenreSignal: String, CaseIterable, Codable, Sendable, Comparable {
    case personalHistory = "personal-history"
    case recommendations
    case trending
    case newReleases = "new-releases"
    case subcategoryRotation = "subcategory-rotation"
    case seedExpansion = "seed-expansion"

    public var title: String {
        switch self {
        case .personalHistory: return "Personal History"
        case .recommendations: return "Recommendations"
        case .trending: return "Trending"
        case .newReleases: return "New Releases"
        case .subcategoryRotation: return "Subcategory Rotation"
        case .seedExpansion: return "Seed Expansion"
        }
    }

    /// The wall signal a genre feed's tile is shown as (the wall's tiles, badges and colours).
    public var wallSignal: WallSignal {
        switch self {
        case .personalHistory: return .listeningHistory
        case .recommendations, .seedExpansion: return .recommendations
        case .trending: return .popularCharts
        case .newReleases: return .newReleases
        case .subcategoryRotation: return .wildCard
        }
    }

    public static func < (a: GenreSignal, b: GenreSignal) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The genre feeds' weights per Crate Dial position, from their own data file
/// (`data/genre-dial.json`); the dial's titles and sentences stay with the wall's table.
public struct GenreDialTable: Equatable, Sendable {
    public static let fileName = "genre-dial.json"

    public let weights: [CrateDialPosition: [GenreSignal: Double]]

    /// The weights of `position` in signal order, weight-0 signals left out.
    public func orderedWeights(_ position: CrateDialPosition) -> [(GenreSignal, Double)] {
        GenreSignal.allCases.map { ($0, weights[position]?[$0] ?? 0) }.filter { $0.1 > 0 }
    }

    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> GenreDialTable {
        guard let url = DataFiles.url(for: fileName, environment: environment),
              let data = FileManager.default.contents(atPath: url.path) else { throw WallError.dataFileMissing(fileName) }
        return try parse(data)
    }

    /// Every dial position exactly once, every signal named known, every weight a finite number ≥ 0,
    /// at least one positive weight per position.
    public static func parse(_ data: Data, name: String = fileName) throws -> GenreDialTable {
        struct File: Decodable {
            struct Position: Decodable {
                let id: String
                let weights: [String: Double]
            }
            let positions: [Position]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw WallError.dataFileInvalid(name: name, reason: "it is not the expected JSON")
        }
        var table: [CrateDialPosition: [GenreSignal: Double]] = [:]
        for position in file.positions {
            guard let kind = CrateDialPosition(rawValue: position.id) else {
                throw WallError.dataFileInvalid(name: name, reason: "it names an unknown dial position \"\(position.id)\"")
            }
            guard table[kind] == nil else { throw WallError.dataFileInvalid(name: name, reason: "it must list \(kind.rawValue) exactly once") }
            var weights: [GenreSignal: Double] = [:]
            for (key, value) in position.weights {
                guard let signal = GenreSignal(rawValue: key) else {
                    throw WallError.dataFileInvalid(name: name, reason: "it names an unknown signal \"\(key)\"")
                }
                guard value.isFinite, value >= 0 else {
                    throw WallError.dataFileInvalid(name: name, reason: "a weight of \(position.id) is not a positive number")
                }
                weights[signal] = value
            }
            guard weights.values.contains(where: { $0 > 0 }) else {
                throw WallError.dataFileInvalid(name: name, reason: "\(position.id) has no weights")
            }
            table[kind] = weights
        }
        for position in CrateDialPosition.allCases where table[position] == nil {
            throw WallError.dataFileInvalid(name: name, reason: "it must list \(position.rawValue) exactly once")
        }
        return GenreDialTable(weights: table)
    }
}

/// Why a genre feed could not be made.
public enum GenreFeedError: Error, Equatable, Sendable, LocalizedError {
    /// No genre of the taxonomy has this id or name.
    case unknownGenre(String)
    /// The genre has no subcategory of this id or name.
    case unknownSubcategory(genre: String, subcategory: String)
    /// Every signal came back empty or failed: nothing to show.
    case noResults(String)

    public var errorDescription: String? {
        switch self {
        case .unknownGenre(let name): return "There is no genre called \"\(name)\". `crate genres` lists them."
        case .unknownSubcategory(let genre, let sub): return "\(genre) has no subcategory called \"\(sub)\". `crate genres` lists them."
        case .noResults(let name): return "No albums were found for \(name) right now."
        }
    }
}
