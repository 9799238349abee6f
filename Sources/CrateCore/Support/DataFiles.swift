import Foundation

/// Finds Crate's data files (the dial's weight tables, the genre list): `$CRATE_DATA_FILES/<name>`,
/// else `<exe>/../share/crate/<name>` (installed), else the source tree's `data/<name>`.
public enum DataFiles {
    public static func locate(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        return candidates(name, environment: environment).first { fm.fileExists(atPath: $0.path) }
    }

    static func candidates(_ name: String, environment: [String: String]) -> [URL] {
        var list: [URL] = []
        if let override = environment["CRATE_DATA_FILES"], !override.isEmpty {
            list.append(URL(fileURLWithPath: override, isDirectory: true).appendingPathComponent(name))
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        list.append(exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/crate/\(name)"))
        // Sources/CrateCore/Support/DataFiles.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        list.append(root.appendingPathComponent("data/\(name)"))
        return list
    }
}
