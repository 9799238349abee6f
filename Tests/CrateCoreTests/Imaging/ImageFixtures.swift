import Foundation

/// Locates `shared/fixtures/images`: next to the repository (…/work/<repo> and …/work/shared),
/// or wherever `CRATE_FIXTURES_DIR` points.
enum ImageFixtures {
    static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["CRATE_FIXTURES_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("shared/fixtures/images")
    }()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(folder).path).filter { $0.hasSuffix(".jpg") }.sorted()
    }
}
