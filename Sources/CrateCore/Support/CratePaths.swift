import Foundation

/// Where Crate keeps its files, following the XDG base-directory spec.
///
/// `CRATE_DATA_DIR`, `CRATE_CACHE_DIR`, `CRATE_CONFIG_DIR` and `CRATE_STATE_DIR` override the XDG
/// locations so tests and the CLI can point at a scratch folder.
public struct CratePaths: Sendable, Equatable {
    public let dataDirectory: URL
    public let cacheDirectory: URL
    public let configDirectory: URL
    public let stateDirectory: URL

    public init(dataDirectory: URL, cacheDirectory: URL, configDirectory: URL, stateDirectory: URL) {
        self.dataDirectory = dataDirectory
        self.cacheDirectory = cacheDirectory
        self.configDirectory = configDirectory
        self.stateDirectory = stateDirectory
    }

    /// Resolves the paths from an environment (defaults to the process environment).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func resolve(_ override: String, _ xdg: String, _ fallback: String) -> URL {
            if let path = environment[override], !path.isEmpty {
                return URL(fileURLWithPath: path, isDirectory: true)
            }
            // The spec says relative XDG paths are invalid and must be ignored.
            if let base = environment[xdg], base.hasPrefix("/") {
                return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("crate", isDirectory: true)
            }
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(fallback, isDirectory: true)
                .appendingPathComponent("crate", isDirectory: true)
        }
        dataDirectory = resolve("CRATE_DATA_DIR", "XDG_DATA_HOME", ".local/share")
        cacheDirectory = resolve("CRATE_CACHE_DIR", "XDG_CACHE_HOME", ".cache")
        configDirectory = resolve("CRATE_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")
        stateDirectory = resolve("CRATE_STATE_DIR", "XDG_STATE_HOME", ".local/state")
    }

    public var databaseURL: URL { dataDirectory.appendingPathComponent("crate.sqlite") }
    public var artworkDirectory: URL { cacheDirectory.appendingPathComponent("artwork", isDirectory: true) }
    public var settingsURL: URL { configDirectory.appendingPathComponent("settings.json") }

    /// Creates `directory` if needed and checks that Crate can write into it.
    public static func ensureWritable(_ directory: URL) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: directory.path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw CrateError.directoryNotWritable(directory.path) }
        } else {
            do {
                try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw CrateError.directoryNotWritable(directory.path)
            }
        }
        guard access(directory.path, W_OK | X_OK) == 0 else {
            throw CrateError.directoryNotWritable(directory.path)
        }
    }
}
