import Foundation

/// A versioned prompt file from `data/prompts/`.
public struct Prompt: Sendable, Equatable {
    /// The file name without `.md`, e.g. `review-v1`; recorded with every result it produced.
    public let version: String
    public let text: String
}

/// Finds and reads prompt files: the `prompts` folder that `DataFiles` finds holding the review
/// prompt (so all prompts come from one place, even when an override folder has only some).
public struct PromptLibrary: Sendable {
    public enum Failure: Error, Equatable, Sendable, LocalizedError {
        case notFound(String)
        case unreadable(String)

        public var errorDescription: String? {
            switch self {
            case .notFound(let name): return "The prompt file \(name).md was not found. Reinstall Crate or set CRATE_DATA_FILES to its data folder."
            case .unreadable(let path): return "The prompt file \(path) could not be read."
            }
        }
    }

    /// ID call 1. v2 also reads the label, catalogue number, barcode, format and track titles;
    /// v1 stays on disk as shipped (never edited) for answers recorded with it.
    public static let identify = "identify-v2"
    public static let identifyV1 = "identify-v1"
    public static let identifySearch = "identify-search-v1"
    public static let review = "review-v1"

    /// The folder holding the `.md` files, or nil when none of the candidates exists.
    public let directory: URL?

    public init(directory: URL?) {
        self.directory = directory
    }

    /// Searches the standard places.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> PromptLibrary {
        PromptLibrary(directory: DataFiles.url(for: "prompts/\(review).md", environment: environment)?.deletingLastPathComponent())
    }

    /// Reads `<name>.md`.
    public func prompt(_ name: String) throws -> Prompt {
        guard let directory else { throw Failure.notFound(name) }
        let url = directory.appendingPathComponent("\(name).md")
        guard FileManager.default.fileExists(atPath: url.path) else { throw Failure.notFound(name) }
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw Failure.unreadable(url.path)
        }
        return Prompt(version: name, text: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
