import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Messages say what happened")
struct WhatHappenedMessagesTests {
    /// Bug: an oversized or truncated answer, a 50 MB key file and a key with CR/LF all said
    /// "Crate could not reach Anthropic. Check the internet connection". The provider was reached
    /// (or the key was never usable); each now says so.
    @Test("An oversized or cut-off answer is not 'could not reach'")
    func answersThatArrivedAreNotUnreachable() async throws {
        for (failure, expected) in [(HTTPError.bodyTooLarge(limit: 4 << 20), "could not read"),
                                    (HTTPError.connectionLost("transfer closed with 1000 bytes remaining"), "stopped short")] {
            let error = await #expect(throws: ProviderError.self) {
                _ = try await ProviderHTTP.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/v1/messages")!), via: FailingClient(error: failure), secret: "sk-x")
            }
            let providerError = try #require(error)
            #expect(!ScanFailure.isUnreachable(providerError), "\(providerError)")
            #expect(providerError.message.contains(expected), "\(providerError.message)")
            #expect(!ScanFailure(IdentificationError.provider(providerError)).message.contains("Check the internet connection"))
        }
        // A real connection failure still is.
        #expect(ScanFailure.isUnreachable(ProviderError.transport("cannot connect (Connection refused)")))
    }

    @Test("A 50 MB key file, a key file with several lines and a key variable with CR/LF are refused with the reason")
    func malformedKeysAreRefused() throws {
        let directory = try TemporaryDirectory()
        let keys = KeyStore(paths: directory.paths, environment: [:])
        let url = keys.keyFileURL(for: .anthropic)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)

        try Data(count: 50 << 20).write(to: url)
        chmod(url.path, 0o600)
        guard case .refusedMalformed(_, let reason) = keys.source(for: .anthropic) else { Issue.record("\(keys.source(for: .anthropic))"); return }
        #expect(reason.contains("larger than an API key"))

        try Data("sk-ant-one\r\nsk-ant-two\n".utf8).write(to: url)
        chmod(url.path, 0o600)
        #expect(keys.key(for: .anthropic) == nil)
        var settings = Settings()
        settings.provider = .anthropic
        let provider = try #require(ProviderFactory.make(settings: settings, keys: keys, http: CurlHTTPClient()) as? UnavailableProvider)
        guard case .unsafeKeyFile(.anthropic, .malformed(let location, _)) = provider.reason else { Issue.record("\(provider.reason)"); return }
        #expect(location == url.path)
        #expect(provider.reason.message.contains("line break"))

        let fromEnvironment = KeyStore(paths: directory.paths, environment: ["ANTHROPIC_API_KEY": "sk-ant-a\r\nX-Injected: 1"])
        #expect(fromEnvironment.key(for: .anthropic) == nil)
        #expect(fromEnvironment.source(for: .anthropic) == .refusedMalformed(location: "$ANTHROPIC_API_KEY",
                                                                              reason: KeyStore.malformation(of: "sk-ant-a\r\nX-Injected: 1") ?? ""))
        #expect(KeyStore(paths: directory.paths, environment: ["ANTHROPIC_API_KEY": "sk-ant-fine-123"]).key(for: .anthropic) == "sk-ant-fine-123")
    }

    /// Bug: a full disk under the artwork cache said "check that you own it".
    @Test("A full cache disk says the disk is full")
    func fullCacheDisk() {
        let full = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteOutOfSpace.rawValue,
                           userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        #expect(CrateError.writing(full, in: "/cache/artwork") == .diskFull(path: "/cache/artwork"))
        #expect(CrateError.writing(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)), in: "/c") == .diskFull(path: "/c"))
        #expect(CrateError.writing(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)), in: "/c") == .directoryNotWritable("/c"))
        #expect(!CrateError.diskFull(path: "/cache/artwork").message.contains("own it"))
    }

    /// Bug: `crate repair` said "Completed 1 of 1 album. Still missing: 1 track list(s)": an album
    /// whose track list had just been given up on counted as completed.
    @Test("An album whose track list was given up on is not counted as finished")
    func givenUpIsNotFinished() async throws {
        let h = try PipelineHarness()
        let id = MusicBrainzFixtures.rumoursReleaseID
        h.server.route("/ws/2/release/\(id)", responses: [.text("down", status: 500)])
        let entry = try h.database.saveScan(of: Album(musicBrainzReleaseID: id, title: "Rumours", artist: "Fleetwood Mac"), method: .vision)
        let albumID = try #require(entry.album.id)
        try h.database.setArtwork(albumID: albumID, status: .unavailable)
        for _ in 1..<DetailsClaim.maxAttempts { try h.database.recordTrackListFailure(albumID: albumID, message: "down") }
        let summary = await h.pipeline(identifier: nil).repairPendingDetails()
        #expect(summary.tried == 1)
        #expect(try h.database.album(id: albumID)?.tracksStatus == .failed)
        #expect(summary.completed == 0)
    }
}

private struct FailingClient: HTTPClient {
    let error: HTTPError
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw error }
    func pendingDeferral(for url: URL) async -> TimeInterval { 0 }
}
