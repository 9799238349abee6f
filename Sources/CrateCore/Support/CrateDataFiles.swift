import Foundation

/// Where Crate's read-only data files are (`data/` in the source tree): `$CRATE_DATA_FILES`, then
/// `<exe>/../share/crate` (installed), then the source tree's `data/` (running from `.build`).
public enum CrateDataFiles {
    public static func candidates(environment: [String: String]) -> [URL] {
        var list: [URL] = []
        if let override = environment["CRATE_DATA_FILES"], !override.isEmpty {
            list.append(URL(fileURLWithPath: override, isDirectory: true))
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        list.append(exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/crate", isDirectory: true))
        // Sources/CrateCore/Support/CrateDataFiles.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        list.append(root.appendingPathComponent("data", isDirectory: true))
        return list
    }

    /// The first existing `name` among the candidates.
    public static func locate(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        candidates(environment: environment)
            .map { $0.appendingPathComponent(name) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
