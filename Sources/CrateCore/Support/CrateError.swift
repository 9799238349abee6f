import Foundation

/// Errors the user can see. Messages are decided here, in one place.
public enum CrateError: Error, Equatable, Sendable {
    case directoryNotWritable(String)
    case databaseNewerThanApp(path: String)
    case databaseReadOnly
    /// The data directory cannot be written: the library is open read-only.
    case databaseDirectoryReadOnly(directory: String)
    /// Another Crate process kept the library locked while opening it for too long.
    case libraryBusy(path: String)
    case databaseOpenFailed(path: String, reason: String)
    case notFound(String)
    /// The disk (or the library's size limit) is full: the write was rolled back.
    case diskFull(path: String)
    /// SQLite could not write (an I/O error, a vanished file): the write was rolled back.
    case databaseWriteFailed(reason: String)
    /// The background integrity check found damage: nothing more is written, and the next start
    /// moves the file aside.
    case libraryDamaged(path: String)

    public var message: String {
        switch self {
        case .directoryNotWritable(let path):
            return "Crate cannot write to \(path). Check that the directory exists and that you own it."
        case .databaseNewerThanApp(let path):
            return "The library at \(path) was written by a newer version of Crate. It is open read-only; update Crate to change it."
        case .databaseReadOnly:
            return "The library is open read-only because it was written by a newer version of Crate."
        case .databaseDirectoryReadOnly(let directory):
            return "Crate cannot write to \(directory), so your library is open read-only: you can look through it, but nothing can be saved until you can write there again."
        case .libraryBusy(let path):
            return "Another Crate process has been opening the library at \(path) for too long. Try again in a moment."
        case .databaseOpenFailed(let path, let reason):
            return "Crate could not open its library at \(path): \(reason)".endingSentence
        case .notFound(let what):
            return "\(what) was not found."
        case .diskFull(let path):
            return "The disk holding your library (\(path)) is full, so this was not saved. Free some space and try again; nothing already in your crate was lost."
        case .databaseWriteFailed(let reason):
            return "Crate could not save to its library (\(reason)). Nothing was half-saved; try again."
        case .libraryDamaged(let path):
            return "Crate found damage in your library (\(path)). To protect what is left, nothing more is saved to it. Quit Crate and start it again: the damaged file is then kept aside and a new library is created."
        }
    }
}

extension CrateError: LocalizedError {
    public var errorDescription: String? { message }
}
