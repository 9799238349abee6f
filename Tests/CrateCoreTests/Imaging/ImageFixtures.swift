import Foundation

/// Locates the reference images: `CRATE_FIXTURES_DIR` if set, else the repository's own copy in
/// `Tests/Fixtures/images`.
enum ImageFixtures {
    static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["CRATE_FIXTURES_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return tests.appendingPathComponent("Fixtures/images")
    }()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(folder).path).filter { $0.hasSuffix(".jpg") }.sorted()
    }
}
