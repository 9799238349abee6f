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
    /// Undo of a removal found the album back in the crate already, as another album (scanned again).
    case alreadyInCrate(title: String)

    public var message: String {
        switch self {
        case .directoryNotWritable(let path):
            return L10n.tr("Crate cannot write to %@. Check that the directory exists and that you own it.", path)
        case .databaseNewerThanApp(let path):
            return L10n.tr("The library at %@ was written by a newer version of Crate. It is open read-only; update Crate to change it.", path)
        case .databaseReadOnly:
            return L10n.tr("The library is open read-only because it was written by a newer version of Crate.")
        case .databaseDirectoryReadOnly(let directory):
            return L10n.tr("Crate cannot write to %@, so your library is open read-only: you can look through it, but nothing can be saved until you can write there again.", directory)
        case .libraryBusy(let path):
            return L10n.tr("Another Crate process has been opening the library at %@ for too long. Try again in a moment.", path)
        case .databaseOpenFailed(let path, let reason):
            return L10n.tr("Crate could not open its library at %@: %@", path, reason).endingSentence
        case .notFound(let what):
            return L10n.tr("%@ was not found.", what)
        case .diskFull(let path):
            return L10n.tr("The disk holding your library (%@) is full, so this was not saved. Free some space and try again; nothing already in your crate was lost.", path)
        case .alreadyInCrate(let title):
            return L10n.tr("The album “%@” is back in your crate already (it was scanned again), so it was not restored a second time.", title)
        case .databaseWriteFailed(let reason):
            return L10n.tr("Crate could not save to its library (%@). Nothing was half-saved; try again.", reason)
        case .libraryDamaged(let path):
            return L10n.tr("Crate found damage in your library (%@). To protect what is left, nothing more is saved to it. Quit Crate and start it again: the damaged file is then kept aside and a new library is created.", path)
        }
    }
}

extension CrateError: LocalizedError {
    public var errorDescription: String? { message }
}

extension CrateError {
    /// A failed file write in `directory`, said as what happened: a full disk (or quota) is
    /// `diskFull`, not "check that you own it"; a refused write is `directoryNotWritable`.
    public static func writing(_ error: Error, in directory: String) -> CrateError {
        let nsError = error as NSError
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        let posix = nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code)
            : (underlying?.domain == NSPOSIXErrorDomain ? Int32(underlying?.code ?? 0) : 0)
        if posix == ENOSPC || posix == EDQUOT || (nsError.domain == NSCocoaErrorDomain && nsError.code == CocoaError.fileWriteOutOfSpace.rawValue) {
            return .diskFull(path: directory)
        }
        return .directoryNotWritable(directory)
    }
}
