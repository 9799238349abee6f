import Foundation

/// Finds Crate's data files (CSS, icons, prompts): installed under `<prefix>/share/crate`, or the
/// source tree's `data/` when run from a build folder. `CRATE_DATA_FILES` overrides both.
enum DataFiles {
    static let directory: URL? = {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["CRATE_DATA_FILES"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/crate"))
        // Running from `.build/<config>/`: the data/ folder of the package this file is in (found
        // by its Package.swift, so moving the file between folders does not lose it).
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !fm.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(folder.appendingPathComponent("data"))
        return candidates.first { fm.fileExists(atPath: $0.appendingPathComponent("style.css").path) }
    }()

    static func url(_ name: String) -> URL? {
        directory?.appendingPathComponent(name)
    }
}
