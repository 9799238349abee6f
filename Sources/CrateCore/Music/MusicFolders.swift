import Foundation

/// Which folders hold the user's music.
public enum MusicFolders {
    /// The configured folders (settings, or `CRATE_MUSIC_DIRS` applied on top), else the default.
    public static func resolve(settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        settings.musicFolders.isEmpty ? [defaultFolder(environment: environment)] : settings.musicFolders
    }

    /// `configured`, then each indexed folder (`AppDatabase.indexedMusicFolders`) that is not
    /// inside one of them: a folder `crate music scan DIR` indexed counts without being configured.
    public static func adding(indexed: [String], to configured: [String]) -> [String] {
        func trimmed(_ path: String) -> String { path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path }
        var folders = configured
        for folder in indexed.map(trimmed) where !folders.map(trimmed).contains(where: { folder == $0 || folder.hasPrefix($0 + "/") }) {
            folders.append(folder)
        }
        return folders
    }

    /// `xdg-user-dir MUSIC`: `XDG_MUSIC_DIR` from `user-dirs.dirs` (read directly, as the tool
    /// does), else `~/Music`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        if let text = try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8),
           let folder = userDir("XDG_MUSIC_DIR", in: text, home: home) {
            return folder
        }
        return home + "/Music"
    }

    /// Parses `XDG_MUSIC_DIR="$HOME/Music"`; a value equal to `$HOME` means "disabled" per the spec.
    static func userDir(_ name: String, in text: String, home: String) -> String? {
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(name + "=") else { continue }
            var value = String(trimmed.dropFirst(name.count + 1))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if value.hasPrefix("$HOME") { value = home + value.dropFirst(5) }
            guard value.hasPrefix("/"), value != home, value != home + "/" else { return nil }
            return value
        }
        return nil
    }
}
