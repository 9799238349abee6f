import Foundation
import GRDB

/// The one place any error becomes the sentence a user reads (the CLI's stderr and scan lines,
/// the window's banners). Crate's own errors speak for themselves (`LocalizedError`); Foundation's
/// and the system's are translated here, because their own words are "The operation could not be
/// completed. (NSCocoaErrorDomain error 256.)"; and an error with no words is never dumped as
/// `CrateCore.SomeError(rawValue: …)`.
public enum UserMessage {
    /// Said when an error has no sentence of its own (a bug in Crate: every error a user can meet
    /// should have one). Its details go to the log instead.
    public static let fallback = "Something went wrong that Crate has no words for yet; the details are in Crate's log."

    public static func text(for error: Error) -> String {
        switch error {
        case let error as CrateError: return error.message
        case is CancellationError: return L10n.tr("The operation was cancelled.")
        case let error as DatabaseError where AppDatabase.isDamage(error):
            // A read that met a damaged page (writes say `CrateError.libraryDamaged`). SQLite's own
            // words are for the log; the window's background check then marks the file for the next start.
            Log.error("library damaged: \(error)")
            return L10n.tr("Part of Crate's library could not be read: the file is damaged. Quit Crate and start it again: Crate then checks the file and, if it is damaged, keeps it aside and creates a new library.")
        case let error as DecodingError: return decoding(error)
        case let error as POSIXError:
            return L10n.tr("The system refused an operation (%@).", String(cString: strerror(error.code.rawValue)))
        default: break
        }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            return foundation(nsError)
        }
        if let described = (error as? LocalizedError)?.errorDescription, !described.isEmpty, !looksLikeADump(described) {
            return described
        }
        Log.error("an error without a message reached the user: \(String(reflecting: error))")
        return fallback
    }

    /// Wording that betrays a missing message: Foundation's "error 256", a domain, an enum dump.
    public static func looksLikeADump(_ text: String) -> Bool {
        let patterns = [#"error \d+"#, #"Domain"#, #"CrateCore\."#, #"Optional\("#, #"\(rawValue"#, #"operation could(n’t|n't| not) be completed"#]
        return patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
    }

    // MARK: - Private

    /// Foundation's file errors, said about the file (its path is in the user info).
    private static func foundation(_ error: NSError) -> String {
        let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path ?? "the file"
        if error.domain == NSPOSIXErrorDomain {
            return FileProblem.from(errno: Int32(error.code), path: path).message
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return FileProblem.from(errno: Int32(underlying.code), path: path).message
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return FileProblem.doesNotExist(path: path).message
        case .fileReadNoPermission, .fileWriteNoPermission: return FileProblem.permissionDenied(path: path).message
        case .fileWriteOutOfSpace: return L10n.tr("The disk is full, so %@ could not be written. Free some space and try again.", path)
        case .fileWriteVolumeReadOnly: return L10n.tr("%@ is on a read-only disk and cannot be written.", path)
        case .fileReadTooLarge: return L10n.tr("%@ is too large to read.", path)
        case .fileReadCorruptFile: return L10n.tr("%@ is damaged and could not be read.", path)
        case .fileReadInapplicableStringEncoding: return L10n.tr("%@ is not text in a known encoding.", path)
        default: return L10n.tr("Crate could not read or write %@.", path)
        }
    }

    private static func decoding(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted: return L10n.tr("The data Crate received is not valid JSON.")
        case .keyNotFound(let key, _): return L10n.tr("The data Crate received has no \"%@\".", key.stringValue)
        case .typeMismatch, .valueNotFound: return L10n.tr("The data Crate received has a value of the wrong kind.")
        @unknown default: return L10n.tr("The data Crate received could not be read.")
        }
    }
}
