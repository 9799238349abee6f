import Foundation

/// Why a file the user named could not be read, in words about the file, not about Foundation
/// ("NSCocoaErrorDomain error 256") or errno. Messages are decided here, in one place.
public enum FileProblem: Error, Equatable, Sendable {
    case doesNotExist(path: String)
    case permissionDenied(path: String)
    case isFolder(path: String)
    /// A named pipe, a socket or a device: reading it could block forever or never end.
    case notRegularFile(path: String, kind: String)
    case symbolicLinkLoop(path: String)
    case nameTooLong(path: String)
    /// Larger than Crate will read into memory.
    case tooLarge(path: String, bytes: Int64, limit: Int64)
    /// Any other failure of the system call, with the system's own words (errno's text).
    case readFailed(path: String, reason: String)

    public var message: String {
        switch self {
        case .doesNotExist(let path):
            return L10n.tr("%@ does not exist.", path)
        case .permissionDenied(let path):
            return L10n.tr("Crate is not allowed to read %@ (permission denied). Check the file's permissions.", path)
        case .isFolder(let path):
            return L10n.tr("%@ is a folder, not a photo file.", path)
        case .notRegularFile(let path, let kind):
            return L10n.tr("%@ is not a regular file (it is %@); Crate reads photos from ordinary files only.", path, kind)
        case .symbolicLinkLoop(let path):
            return L10n.tr("%@ could not be opened: its symbolic links point at each other in a loop.", path)
        case .nameTooLong(let path):
            return L10n.tr("The path %@ is too long to open.", path)
        case .tooLarge(let path, let bytes, let limit):
            return L10n.tr("%@ is %@; Crate reads photos of up to %@. Use a smaller copy of the photo.", path, Self.size(bytes), Self.size(limit))
        case .readFailed(let path, let reason):
            return L10n.tr("Crate could not read %@ (%@).", path, reason)
        }
    }

    public var code: String {
        switch self {
        case .tooLarge: return "file_too_large"
        default: return "unreadable_file"
        }
    }

    /// The problem an `open`/`read` errno stands for.
    public static func from(errno code: Int32, path: String) -> FileProblem {
        switch code {
        case ENOENT, ENOTDIR: return .doesNotExist(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ELOOP: return .symbolicLinkLoop(path: path)
        case ENAMETOOLONG: return .nameTooLong(path: path)
        case EISDIR: return .isFolder(path: path)
        default: return .readFailed(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// "4.0 GB", "100 MB", "512 KB": decimal units, as file managers show sizes.
    static func size(_ bytes: Int64) -> String {
        let units: [(Int64, String)] = [(1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "KB")]
        for (scale, unit) in units where bytes >= scale {
            let value = Double(bytes) / Double(scale)
            return value.rounded() == value ? "\(Int64(value)) \(unit)" : String(format: "%.1f", value) + " " + unit
        }
        return L10n.tr("%@ bytes", bytes)
    }
}

extension FileProblem: LocalizedError {
    public var errorDescription: String? { message }
}
