import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Hostile or odd input — escape sequences from the network, absurd numbers, huge or strange
/// files, unsafe key files, non-UTF-8 names — gets a clear sentence, never a crash or a raw dump.
@Suite("Bad input, honest output", .tags(.process))
struct BadInputTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images")

    /// A title as a hostile MusicBrainz entry could carry it: set the window title, clear the screen, ring, CSI (C1).
    static let hostile = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J Title\u{9B}31m\r\u{7F}"

    /// Control characters a terminal acts on: C0 (here without newline and tab), DEL, C1.
    static func controls(in text: String, allowing allowed: Set<UInt32> = [0x0A]) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 || (0x7F...0x9F).contains($0)) && !allowed.contains($0) }
    }

    // MARK: - #8 control characters

    @Test func historyPrintsNoControlCharactersButJSONKeepsTheTitle() async throws {
        let cli = try CLIRunner()
        do {
            let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            try database.saveScan(of: Album(title: Self.hostile, artist: "Band\u{1B}[31m", year: "1977"), method: .manual)
        }
        let text = try await cli.run(["history"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.controls(in: text.stdout, allowing: [0x0A, 0x09]).isEmpty, "\(text.stdout.debugDescription)")
        #expect(text.stdout.contains("Title"))

        let json = try await cli.run(["history", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect((items.first?["album"] as? [String: Any])?["title"] as? String == Self.hostile)
    }

    @Test func reviewTextPrintsNoControlCharacters() async throws {
        let cli = try CLIRunner()
        do {
            let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            try database.saveReview(Review(
                key: ReviewKey.make(artist: "Band", title: "Album"),
                summary: "Fine \(Self.hostile)\nSecond line.", bullets: ["a\u{1B}[2J", "b\u{07}", "c\u{9B}0m"], rating: 7,
                recommendation: "Essential Classic", tier: 1, keyTracks: ["One\u{1B}]0;x\u{07}", "Two", "Three"],
                provider: "anthropic", model: "m\u{1B}[1m", promptVersion: "review-v1", usedSearch: false))
        }
        let text = try await cli.run(["review", "--artist", "Band", "--title", "Album"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.controls(in: text.stdout).isEmpty, "\(text.stdout.debugDescription)")
        #expect(text.stdout.contains("Second line."))
    }

    @Test func providerErrorTextIsPrintedWithoutControlCharacters() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let body = #"{"type":"error","error":{"type":"invalid_request_error","message":"bad \u001b]0;owned\u0007\u001b[2J request"}}"#
        server.route("/v1/messages", responses: [.json(body, status: 400)])
        let result = try await CLIRunner().run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue"], extraEnvironment: [
            "CRATE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-test", "CRATE_PROVIDER_URL": server.baseURL.absoluteString,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("request"), "\(result.stderr)")
        #expect(Self.controls(in: result.stderr).isEmpty, "\(result.stderr.debugDescription)")
    }

    @Test func scanHumanLineEscapesAFileNameWithControlCharacters() async throws {
        let cli = try CLIRunner()
        let photo = cli.root.appendingPathComponent("evil\u{1B}[2J.jpg")
        try Data("not an image".utf8).write(to: photo)
        let result = try await cli.run(["scan", "--offline", photo.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("not an image"), "\(result.stdout)")
        #expect(Self.controls(in: result.stdout).isEmpty, "\(result.stdout.debugDescription)")
    }

    // MARK: - #9 numeric options

    @Test func anAbsurdSimulatedDurationIsRefusedNotACrash() async throws {
        let cli = try CLIRunner()
        let id: Int64
        do {
            let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            let entry = try database.saveScan(of: Album(title: "First", artist: "Band"), method: .manual)
            id = try #require(entry.album.id)
            try database.replaceTracks([Track(albumID: id, disc: 1, position: 1, title: "Intro", durationMs: 1_000)], forAlbum: id)
        }
        let result = try await cli.run(["play", "\(id)", "--simulate-seconds", "9223372036854776"])
        #expect(result.status == 64, "a usage error, not a crash: \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--simulate-seconds"))
    }

    @Test(arguments: [
        (["batch", "run", "--limit", "0"], "--limit"),
        (["batch", "run", "--limit", "-5"], "--limit"),
        (["history", "--limit", "99999999999"], "--limit"),
        (["play", "0"], "album id"),
        (["play", "3", "--from-grid", "3,-1"], "--from-grid"),
        (["play", "3", "--simulate-seconds", "0"], "--simulate-seconds"),
        (["debug", "write-scans", "-1"], "count"),
    ])
    func everyNumericOptionHasARange(_ arguments: [String], _ named: String) async throws {
        let result = try await CLIRunner().run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains(named), "\(arguments): \(result.stderr)")
    }

    // MARK: - #10 huge and odd files

    @Test func aHugeSparsePhotoIsRefusedFastWithLittleMemory() async throws {
        let cli = try CLIRunner()
        let photo = cli.root.appendingPathComponent("huge.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: photo)
        let handle = try FileHandle(forWritingTo: photo)
        try handle.truncate(atOffset: 4 << 30)
        try handle.close()
        let environment = cli.environment, root = cli.root
        let result = try await BlockingWork.run {
            try RawProcess.run([Array("scan".utf8), Array("--offline".utf8), Array(photo.path.utf8)], environment: environment, in: root)
        }
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        // Refused on its size (the message names the limit) with little memory: nothing was read
        // in. How fast depends on the machine's load, so time is printed, not asserted.
        #expect(result.stdout.contains("100 MB"), "\(result.stdout)")
        let peak = try #require(result.maxRSS, "the peak is measured with /usr/bin/time (scripts/install-deps installs it)")
        #expect(peak < 300 << 20, "peak memory \(peak >> 20) MB")
        print("a 4 GB sparse photo refused after \(String(format: "%.2f", result.seconds)) s, peak \(peak >> 20) MB")
    }

    @Test func aFolderAFIFOAndASymlinkLoopEachGetTheirOwnSentence() async throws {
        let cli = try CLIRunner()
        let folder = cli.root.appendingPathComponent("folder.jpg")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = cli.root.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let loop = cli.root.appendingPathComponent("loop.jpg")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        let missing = cli.root.appendingPathComponent("missing.jpg")

        let result = try await cli.run(["scan", "--offline", folder.path, fifo.path, loop.path, missing.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stdout)")
        #expect(lines.first { $0.hasPrefix(folder.path) }?.contains("is a folder") == true, "\(result.stdout)")
        #expect(lines.first { $0.hasPrefix(fifo.path) }?.contains("not a regular file") == true, "\(result.stdout)")
        #expect(lines.first { $0.hasPrefix(loop.path) }?.contains("symbolic link") == true, "\(result.stdout)")
        #expect(lines.first { $0.hasPrefix(missing.path) }?.contains("does not exist") == true, "\(result.stdout)")
        for line in lines {
            #expect(!line.contains("Domain") && !line.contains("error 2") && !line.contains("permission"), "\(line)")
        }
    }

    // MARK: - #11 unsafe key files

    @Test func aKeyFileReadableByOthersIsNamedByScanAndReviewNotCalledMissing() async throws {
        let cli = try CLIRunner()
        let keys = KeyStore(paths: CratePaths(environment: cli.environment), environment: [:])
        try keys.storeKey("sk-file", for: .anthropic)
        #expect(chmod(keys.keyFileURL(for: .anthropic).path, 0o644) == 0)
        let environment = ["CRATE_PROVIDER": "anthropic", "CRATE_MUSICBRAINZ_URL": "http://127.0.0.1:9/ws/2",
                           "CRATE_COVERART_URL": "http://127.0.0.1:9", "CRATE_PROVIDER_URL": "http://127.0.0.1:9"]

        let review = try await cli.run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue"], extraEnvironment: environment)
        #expect(review.status == 1)
        #expect(review.stderr.contains("readable by others"), "\(review.stderr)")
        #expect(!review.stderr.contains("No API key is set"), "\(review.stderr)")

        let photo = Self.fixtures.appendingPathComponent("negatives/unknown-00.jpg").path
        let scan = try await cli.run(["scan", photo], extraEnvironment: environment)
        #expect(scan.status == 1)
        #expect(scan.stdout.contains("readable by others"), "\(scan.stdout)")
        #expect(!scan.stdout.contains("No API key is set"), "\(scan.stdout)")
    }

    @Test func aWorldWritableKeysFolderIsRefusedAndSaysSo() async throws {
        let cli = try CLIRunner()
        let keys = KeyStore(paths: CratePaths(environment: cli.environment), environment: [:])
        try keys.storeKey("sk-file", for: .anthropic)
        let folder = keys.keyFileURL(for: .anthropic).deletingLastPathComponent()
        #expect(chmod(folder.path, 0o777) == 0)
        #expect(keys.key(for: .anthropic) == nil)

        let doctor = try await cli.run(["doctor"])
        #expect(doctor.stdout.contains("writable by others"), "\(doctor.stdout)")
        let review = try await cli.run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue"],
                                       extraEnvironment: ["CRATE_PROVIDER": "anthropic", "CRATE_PROVIDER_URL": "http://127.0.0.1:9"])
        #expect(review.status == 1)
        #expect(review.stderr.contains("writable by others"), "\(review.stderr)")
    }

    // MARK: - #13 non-UTF-8 file names

    @Test func aNonUTF8FileNameIsScannedAndQueuedAlike() async throws {
        let cli = try Self.seededCLI()
        let folder = cli.root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // "caf\xFF.jpg": not UTF-8, as an old Latin-1 camera card might name it.
        let name = Array(folder.path.utf8) + Array("/caf".utf8) + [0xFF] + Array(".jpg".utf8)
        let photo = try Data(contentsOf: Self.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg"))
        let fd = open(name.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        _ = photo.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let environment = cli.environment, root = cli.root
        let scan = try await BlockingWork.run { try RawProcess.run([Array("scan".utf8), Array("--offline".utf8), name], environment: environment, in: root) }
        #expect(scan.status == 0, "\(scan.stdout) \(scan.stderr)")
        #expect(scan.stdout.contains("Rumours"), "\(scan.stdout)")
        #expect(scan.stdout.contains("caf\\xFF.jpg"), "the name is shown with the odd byte spelled out: \(scan.stdout)")

        let add = try await BlockingWork.run { try RawProcess.run([Array("batch".utf8), Array("add".utf8), name], environment: environment, in: root) }
        #expect(add.status == 0, "\(add.stderr)")
        let run = try await cli.run(["batch", "run", "--offline"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("Rumours"), "\(run.stdout)")
    }

    /// A crate that knows cover-00 (with its hash), as if it had been scanned before.
    static func seededCLI() throws -> CLIRunner {
        let cli = try CLIRunner()
        let paths = CratePaths(environment: cli.environment)
        let database = try AppDatabase.open(paths: paths)
        let entry = try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977", artworkStatus: .available), method: .vision)
        let artwork = try ImagePreparer().prepareArtwork(Data(contentsOf: fixtures.appendingPathComponent("covers/cover-00.jpg")))
        let albumID = try #require(entry.album.id)
        try database.saveCoverHash(artwork.hash, forAlbum: albumID)
        // Tier 0 verifies a hash match against the album's artwork file, so the file must be there.
        try FileManager.default.createDirectory(at: paths.artworkDirectory, withIntermediateDirectories: true)
        try artwork.large.write(to: paths.artworkDirectory.appendingPathComponent("rumours.jpg"))
        try database.setArtwork(albumID: albumID, status: .available, artworkPath: "rumours.jpg")
        return cli
    }
}
