import Foundation

/// Finds Crate's read-only data files (`data/` in the source tree: the dial's weight tables, the
/// genre list, prices, prompts, the window's CSS and icons). The first place that has the file:
/// `$CRATE_DATA_FILES/<name>`, then `<exe>/../share/crate/<name>` (installed), then the source
/// tree's `data/<name>` (running from `.build`).
public enum DataFiles {
    /// The first existing `name` (a file or folder, may hold a "/": "prompts/review-v1.md").
    public static func url(for name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        return directories(environment: environment).map { $0.appendingPathComponent(name) }.first { fm.fileExists(atPath: $0.path) }
    }

    /// The places searched, in order, whether or not they exist.
    public static func directories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var list: [URL] = []
        if let override = environment["CRATE_DATA_FILES"], !override.isEmpty {
            list.append(URL(fileURLWithPath: override, isDirectory: true))
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        list.append(exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/crate", isDirectory: true))
        list.append(sourceTree.appendingPathComponent("data", isDirectory: true))
        return list
    }

    /// The package this file was built from, found by its Package.swift so that moving this file
    /// between folders does not lose it.
    static let sourceTree: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()
}
