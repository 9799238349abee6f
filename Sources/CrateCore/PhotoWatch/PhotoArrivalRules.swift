import Foundation

/// Which names in a watched folder can be photos. Sync tools write into temporary names and rename
/// the finished file (Syncthing `.syncthing.NAME.tmp` and `~syncthing~NAME.tmp`, Nextcloud
/// `.~lock…` and `NAME.part`/`.NAME.part`, KDE Connect `NAME.part`): those are never read, and the
/// renamed file arrives as a new name. Only JPEGs are taken, as `crate scan` takes them.
public enum PhotoArrivalRules {
    public static let photoExtensions: Set<String> = ["jpg", "jpeg", "jpe"]

    /// True when `name` (a file name, not a path) may be a finished photo.
    public static func accepts(_ name: String) -> Bool {
        // Dotfiles cover `.syncthing.*.tmp`, `.~lock*` and `.*.part`; `~` covers `~syncthing~*.tmp`
        // and editors' backups.
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasPrefix("~"), !name.hasSuffix("~") else { return false }
        let lower = name.lowercased()
        for temporary in [".part", ".tmp", ".partial", ".crdownload", ".download"] where lower.hasSuffix(temporary) {
            return false
        }
        guard let dot = lower.lastIndex(of: ".") else { return false }
        return photoExtensions.contains(String(lower[lower.index(after: dot)...]))
    }
}
