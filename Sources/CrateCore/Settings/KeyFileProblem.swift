/// Why Crate would not use a key file it found: another user could read the key, or replace it.
/// The provider's error carries this, so a scan or a review says the real reason instead of
/// "No API key is set".
public enum KeyFileProblem: Equatable, Sendable {
    /// The key file's mode lets group or others read it.
    case readableByOthers(path: String)
    /// The keys folder is world-writable: anyone could swap the key for their own.
    case folderWritableByOthers(path: String)
    /// What was found at `location` (a file, or `$VARIABLE`) cannot be a key (several lines, a
    /// control character, megabytes); `reason` is a clause about it.
    case malformed(location: String, reason: String)

    /// Why the key was refused, as a clause ("the file … is readable by others").
    public var reason: String {
        switch self {
        case .readableByOthers(let path): return "the file \(path) is readable by others"
        case .folderWritableByOthers(let path): return "the folder \(path) is writable by others, so anyone could replace the key"
        case .malformed(let location, let reason): return "\(location) \(reason)"
        }
    }

    /// The command that fixes it.
    public var fix: String {
        switch self {
        case .readableByOthers(let path): return "chmod 600 \(path)"
        case .folderWritableByOthers(let path): return "chmod 700 \(path)"
        case .malformed(let location, _):
            return location.hasPrefix("$") ? "export \(location.dropFirst())=YOUR-KEY" : "printf '%s' YOUR-KEY > \(location)"
        }
    }
}
