import Foundation

/// Why the genre taxonomy could not be read.
public enum GenreTaxonomyError: Error, Equatable, Sendable, LocalizedError {
    /// No `genres.json` in any data folder.
    case notFound
    case unreadable(String)
    /// The file is there but breaks a rule; the text names the entry.
    case invalid(String)

    public var errorDescription: String? {
        switch self {
        case .notFound: return "The genre list (genres.json) was not found. Reinstall Crate or set CRATE_DATA_FILES to its data folder."
        case .unreadable(let path): return "The genre list \(path) could not be read."
        case .invalid(let reason): return "The genre list is damaged: \(reason)."
        }
    }
}
