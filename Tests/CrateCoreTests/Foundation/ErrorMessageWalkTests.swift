import CrateAudio
import Foundation
import GRDB
import Testing
@testable import CrateCore

/// Walks every case of every error a user can meet and checks that it reads as a sentence, both
/// through `UserMessage` (the CLI, the window) and through `localizedDescription` (anything that
/// forgets to ask `UserMessage`): never "NSCocoaErrorDomain error 256", "CrateCore.ImageError
/// error 6", `Optional(…)` or an enum dump.
///
/// Each `Walk` pairs examples with an exhaustive `switch`: a new case does not compile until it is
/// given here, and a case without an example fails `everyCaseHasAnExample`.
@Suite("Every error has a sentence")
struct ErrorMessageWalkTests {
    struct Walk: Sendable {
        let type: String
        let examples: [any Error & Sendable]
        /// Which case an example is, 0..<cases.
        let index: @Sendable (any Error) -> Int
        let cases: Int

        init<E: Error & Sendable>(_ examples: [E], cases: Int, index: @escaping @Sendable (E) -> Int) {
            type = String(describing: E.self)
            self.examples = examples
            self.index = { ($0 as? E).map(index) ?? -1 }
            self.cases = cases
        }
    }

    static let kinds = ProviderKind.allCases

    static let walks: [Walk] = [
        Walk([CrateError.directoryNotWritable("/data/crate"), .databaseNewerThanApp(path: "/data/crate/crate.sqlite"), .databaseReadOnly,
              .databaseOpenFailed(path: "/data/crate/crate.sqlite", reason: "it is damaged"), .notFound("The album"), .diskFull(path: "/data"),
              .databaseWriteFailed(reason: "disk I/O error"), .databaseDirectoryReadOnly(directory: "/data/crate"),
              .libraryBusy(path: "/data/crate/crate.sqlite"), .libraryDamaged(path: "/data/crate/crate.sqlite"),
              .alreadyInCrate(title: "Blue Train")], cases: 11) {
            switch $0 {
            case .directoryNotWritable: 0
            case .databaseNewerThanApp: 1
            case .databaseReadOnly: 2
            case .databaseOpenFailed: 3
            case .notFound: 4
            case .diskFull: 5
            case .databaseWriteFailed: 6
            case .databaseDirectoryReadOnly: 7
            case .libraryBusy: 8
            case .libraryDamaged: 9
            case .alreadyInCrate: 10
            }
        },
        Walk([ImageError.emptyFile, .notAnImage, .unsupportedFormat("PNG"), .damaged(detail: "premature end"), .tooLarge(width: 65000, height: 65000),
              .tooManyScans, .encodingFailed("out of memory")] + fileProblems.map(ImageError.file), cases: 8) {
            switch $0 {
            case .emptyFile: 0
            case .notAnImage: 1
            case .unsupportedFormat: 2
            case .damaged: 3
            case .tooLarge: 4
            case .tooManyScans: 5
            case .file: 6
            case .encodingFailed: 7
            }
        },
        Walk(fileProblems, cases: 8) {
            switch $0 {
            case .doesNotExist: 0
            case .permissionDenied: 1
            case .isFolder: 2
            case .notRegularFile: 3
            case .symbolicLinkLoop: 4
            case .nameTooLong: 5
            case .tooLarge: 6
            case .readFailed: 7
            }
        },
        Walk([ScanFailure.notIdentified, .badImage(ImageError.notAnImage.message), .providerKey(ProviderError.missingKey(.anthropic).message),
              .other(HTTPError.timedOut.message), .cancelled, .mustWait(service: "MusicBrainz", seconds: 600, queued: true),
              .mustWait(service: "MusicBrainz", seconds: 45, queued: false), .offline(service: "Anthropic"),
              .budgetUsedUp(UsageBudgetError.usedUp(usedText: "150 of 150 scans", resetsOn: Date(timeIntervalSince1970: 1_796_083_200)).message)], cases: 8) {
            switch $0 {
            case .notIdentified: 0
            case .badImage: 1
            case .providerKey: 2
            case .other: 3
            case .cancelled: 4
            case .mustWait: 5
            case .offline: 6
            case .budgetUsedUp: 7
            }
        },
        Walk([UsageBudgetError.usedUp(usedText: "$5.02 of $5.00", resetsOn: Date(timeIntervalSince1970: 1_796_083_200))], cases: 1) {
            switch $0 {
            case .usedUp: 0
            }
        },
        Walk([DiscogsAccountError.noToken, .tokenRejected, .rateLimited(seconds: 42), .releaseUnknown(1873013), .server(status: 503),
              .malformedResponse, .network(.timedOut), .noRelease, .albumNotFound(7)], cases: 9) {
            switch $0 {
            case .noToken: 0
            case .tokenRejected: 1
            case .rateLimited: 2
            case .releaseUnknown: 3
            case .server: 4
            case .malformedResponse: 5
            case .network: 6
            case .noRelease: 7
            case .albumNotFound: 8
            }
        },
        Walk([DiscogsError.noToken, .tokenRejected, .rateLimited(seconds: 42), .server(status: 500), .malformedResponse,
              .network(.cannotConnect("connection refused"))], cases: 6) {
            switch $0 {
            case .noToken: 0
            case .tokenRejected: 1
            case .rateLimited: 2
            case .server: 3
            case .malformedResponse: 4
            case .network: 5
            }
        },
        Walk([BudgetInputError.scans, .cost], cases: 2) {
            switch $0 {
            case .scans: 0
            case .cost: 1
            }
        },
        Walk([MusicFolderInputError.notAFolder("/home/u/notes.txt"), .alreadyAdded("/home/u/Music"),
              .insideAnother(folder: "/home/u/Music/Jazz", parent: "/home/u/Music")], cases: 3) {
            switch $0 {
            case .notAFolder: 0
            case .alreadyAdded: 1
            case .insideAnother: 2
            }
        },
        Walk([PriceTableError.unreadable(path: "/config/crate/provider-prices.json"), .malformed(path: "/config/crate/provider-prices.json"),
              .invalidPrice(path: "/config/crate/provider-prices.json", provider: "anthropic", model: "claude-sonnet-4*", field: "input")], cases: 3) {
            switch $0 {
            case .unreadable: 0
            case .malformed: 1
            case .invalidPrice: 2
            }
        },
        Walk(providerErrors, cases: 11) {
            switch $0 {
            case .missingKey: 0
            case .unsafeKeyFile: 1
            case .invalidKey: 2
            case .rateLimited: 3
            case .overloaded: 4
            case .quotaExhausted: 5
            case .refusal: 6
            case .emptyResponse: 7
            case .serverError: 8
            case .badResponse: 9
            case .transport: 10
            }
        },
        Walk([ReviewError.invalidInput(.emptyArtist), .noProvider, .invalidOutput(.moneyTalk), .prompt(.notFound("review-v1"))]
             + providerErrors.map(ReviewError.provider) + reviewOutputErrors.map(ReviewError.invalidOutput), cases: 5) {
            switch $0 {
            case .invalidInput: 0
            case .noProvider: 1
            case .provider: 2
            case .invalidOutput: 3
            case .prompt: 4
            }
        },
        Walk([ReviewInputError.emptyArtist, .emptyTitle, .fieldTooLong(field: "title", limit: 200), .tooManyGenres(limit: 10), .invalidYear("77")], cases: 5) {
            switch $0 {
            case .emptyArtist: 0
            case .emptyTitle: 1
            case .fieldTooLong: 2
            case .tooManyGenres: 3
            case .invalidYear: 4
            }
        },
        Walk(reviewOutputErrors, cases: 7) {
            switch $0 {
            case .notJSON: 0
            case .missingField: 1
            case .ratingOutOfRange: 2
            case .tooFewBullets: 3
            case .unknownRecommendation: 4
            case .tooFewKeyTracks: 5
            case .moneyTalk: 6
            }
        },
        Walk([MusicBrainzError.invalidIdentifier("nope"), .notFound, .busy, .refused, .server(status: 502), .malformedResponse("truncated"),
              .network(.timedOut), .mustWait(seconds: 600)], cases: 8) {
            switch $0 {
            case .invalidIdentifier: 0
            case .notFound: 1
            case .busy: 2
            case .refused: 3
            case .server: 4
            case .malformedResponse: 5
            case .network: 6
            case .mustWait: 7
            }
        },
        Walk([ArtistCatalogueError.noArtistNamed("Sunn O)))"), .noSuchArtist(try! MBID("bd13909f-1c29-4c27-a874-d4aaf27c5b1a")), .notCached], cases: 3) {
            switch $0 {
            case .noArtistNamed: 0
            case .noSuchArtist: 1
            case .notCached: 2
            }
        },
        Walk([GenreTaxonomyError.notFound, .unreadable("/usr/share/crate/genres.json"), .invalid("id \"rock\" is used twice")], cases: 3) {
            switch $0 {
            case .notFound: 0
            case .unreadable: 1
            case .invalid: 2
            }
        },
        Walk([GenreFeedError.unknownGenre("polka-core"), .unknownSubcategory(genre: "Rock", subcategory: "bebop"), .noResults("Rock: Post-Rock")], cases: 3) {
            switch $0 {
            case .unknownGenre: 0
            case .unknownSubcategory: 1
            case .noResults: 2
            }
        },
        Walk([MBIDError.invalid("nope")], cases: 1) {
            switch $0 {
            case .invalid: 0
            }
        },
        Walk([CoverArtError.server(status: 500), .malformedIndex, .invalidImage("it is not a JPEG image"), .invalidImage(ImageError.damaged(detail: "x").message),
              .network(.cannotConnect("connection refused")), .mustWait(seconds: 90)], cases: 5) {
            switch $0 {
            case .server: 0
            case .malformedIndex: 1
            case .invalidImage: 2
            case .network: 3
            case .mustWait: 4
            }
        },
        Walk(httpErrors, cases: 10) {
            switch $0 {
            case .invalidURL: 0
            case .timedOut: 1
            case .cannotConnect: 2
            case .bodyTooLarge: 3
            case .tooManyRedirects: 4
            case .redirectRefused: 5
            case .cancelled: 6
            case .transport: 7
            case .connectionLost: 8
            case .invalidRequest: 9
            }
        },
        Walk([SettingsError.malformed(path: "/config/crate/settings.json"), .invalidEndpoint(variable: "CRATE_MUSICBRAINZ_URL", value: "ftp://x"),
              .unknownProvider("gemini")], cases: 3) {
            switch $0 {
            case .malformed: 0
            case .invalidEndpoint: 1
            case .unknownProvider: 2
            }
        },
        Walk([PlaybackError.albumNotFound(7), .noTrackList(albumID: 7), .albumNotInGrid(7), .nothingToPlay, .entryOutOfRange(3),
              .trackListPending(albumID: 7), .trackListFailed(albumID: 7)], cases: 7) {
            switch $0 {
            case .albumNotFound: 0
            case .noTrackList: 1
            case .albumNotInGrid: 2
            case .nothingToPlay: 3
            case .entryOutOfRange: 4
            case .trackListPending: 5
            case .trackListFailed: 6
            }
        },
        Walk([AudioPlaybackError.notInMusicFolder(albumID: 7), .ambiguousFiles(albumID: 7, folders: ["/music/A/B", "/music/copy/A/B"]),
              .missingPlugin(format: "AAC", package: "gstreamer1.0-libav"), .fileMissing(path: "/music/A/B/01.flac"),
              .unreadableFile(path: "/music/A/B/02.flac"), .noAudioOutput, .invalidSink("nosuchsink"), .playerUnavailable,
              .playbackFailed(path: "/music/A/B/03.flac"), .trackNotInMusicFolder(albumID: 7, disc: 1, position: 4)], cases: 10) {
            switch $0 {
            case .notInMusicFolder: 0
            case .trackNotInMusicFolder: 9
            case .ambiguousFiles: 1
            case .missingPlugin: 2
            case .fileMissing: 3
            case .unreadableFile: 4
            case .noAudioOutput: 5
            case .invalidSink: 6
            case .playerUnavailable: 7
            case .playbackFailed: 8
            }
        },
        Walk([PluginError.notInstalled(.gstreamer, searched: ["/opt/crate/bin", "/opt/crate/lib/crate"]), .notInstalled(.coverCheck, searched: []),
              .cannotLoad(.coverCheck, path: "/opt/crate/bin/libCrateCoverCheck.so"),
              .incompatible(.gstreamer, path: "/opt/crate/bin/libCrateGStreamer.so")], cases: 3) {
            switch $0 {
            case .notInstalled: 0
            case .cannotLoad: 1
            case .incompatible: 2
            }
        },
        Walk([BarcodeError.wrongCheckDigit("4006381333932", expected: "1"), .isbn("9780306406157"), .wrongLength("12345"),
              .notDigits("50999O2943527"), .notDigits(""), .unavailable(.notInstalled(.barcode, searched: ["/opt/crate/bin"])),
              .unavailable(.cannotLoad(.barcode, path: "/opt/crate/lib/crate/libCrateBarcode.so")),
              .scanFailed(width: 4000, height: 3000)], cases: 6) {
            switch $0 {
            case .wrongCheckDigit: 0
            case .isbn: 1
            case .wrongLength: 2
            case .notDigits: 3
            case .unavailable: 4
            case .scanFailed: 5
            }
        },
        Walk([PlayerProcessError.notInstalled(searched: ["/opt/crate/bin", "/opt/crate/lib/crate"]),
              .couldNotStart(path: "/opt/crate/lib/crate/crate-player", errno: EACCES), .endedAtStart(reason: "exit status 1"),
              .failed("The player could not open the file."), .restarted(path: "/music/A/B/02.flac", reason: "Aborted"),
              .restarted(path: nil, reason: "Killed"), .stoppedTwice(path: "/music/A/B/02.flac"), .keepsStopping(count: 3)], cases: 7) {
            switch $0 {
            case .notInstalled: 0
            case .couldNotStart: 1
            case .endedAtStart: 2
            case .failed: 3
            case .restarted: 4
            case .stoppedTwice: 5
            case .keepsStopping: 6
            }
        },
        Walk([TagReadProblem.empty, .unreadable, .noAudio], cases: 3) {
            switch $0 {
            case .empty: 0
            case .unreadable: 1
            case .noAudio: 2
            }
        },
        Walk([BatchQueueError.notPending(path: "/photos/a.jpg"), .claimedElsewhere(path: "/photos/a.jpg"), .triedTooOften(path: "/photos/a.jpg", attempts: 3)], cases: 3) {
            switch $0 {
            case .notPending: 0
            case .claimedElsewhere: 1
            case .triedTooOften: 2
            }
        },
        Walk([IdentificationError.unreadableAnswer, .provider(.missingKey(.openai)), .provider(.overloaded), .prompt(.unreadable("/prompts/identify-v1.md"))], cases: 3) {
            switch $0 {
            case .unreadableAnswer: 0
            case .provider: 1
            case .prompt: 2
            }
        },
        Walk([PromptLibrary.Failure.notFound("review-v1"), .unreadable("/prompts/review-v1.md")], cases: 2) {
            switch $0 {
            case .notFound: 0
            case .unreadable: 1
            }
        },
        Walk([LenientJSON.Failure.noJSONObject], cases: 1) {
            switch $0 {
            case .noJSONObject: 0
            }
        },
        Walk([ListenBrainzError.noAccount, .noToken, .invalidToken, .unknownUser("rob"), .rateLimited(seconds: 7), .statsNotReady, .badRequest,
              .server(status: 503), .malformedResponse("fresh releases"), .network(.timedOut)], cases: 10) {
            switch $0 {
            case .noAccount: 0
            case .noToken: 1
            case .invalidToken: 2
            case .unknownUser: 3
            case .rateLimited: 4
            case .statsNotReady: 5
            case .badRequest: 6
            case .server: 7
            case .malformedResponse: 8
            case .network: 9
            }
        },
        Walk([DirectoryWatcherError.unavailable(errno: EMFILE), .unavailable(errno: ENOMEM)], cases: 1) {
            switch $0 {
            case .unavailable: 0
            }
        },
        Walk([WallError.dataFileMissing("crate-dial.json"), .dataFileInvalid(name: "/data/crate-dial.json", reason: "it must list mystery exactly once"),
              .timedOut(seconds: 5), .empty, .notConfigured("a ListenBrainz user name"), .unknownAlbum("42"),
              .albumWithoutReleaseGroup("Rumours")], cases: 7) {
            switch $0 {
            case .dataFileMissing: 0
            case .dataFileInvalid: 1
            case .timedOut: 2
            case .empty: 3
            case .notConfigured: 4
            case .unknownAlbum: 5
            case .albumWithoutReleaseGroup: 6
            }
        },
        Walk([FeedbackError.noRecordings, .leaseLost], cases: 2) {
            switch $0 {
            case .noRecordings: 0
            case .leaseLost: 1
            }
        },
        Walk([ProviderKeyProblem(keyProblemMessage: ProviderError.invalidKey(.anthropic, status: 401).message)], cases: 1) { _ in 0 },
    ]

    static let fileProblems: [FileProblem] = [
        .doesNotExist(path: "/photos/a.jpg"), .permissionDenied(path: "/photos/a.jpg"), .isFolder(path: "/photos"),
        .notRegularFile(path: "/photos/pipe.jpg", kind: "a named pipe"), .symbolicLinkLoop(path: "/photos/loop.jpg"),
        .nameTooLong(path: "/photos/" + String(repeating: "a", count: 300)), .tooLarge(path: "/photos/huge.jpg", bytes: 4_294_967_296, limit: 100_000_000),
        .readFailed(path: "/photos/a.jpg", reason: "Input/output error"),
    ]

    static let providerErrors: [ProviderError] = kinds.flatMap { kind in
        [ProviderError.missingKey(kind), .unsafeKeyFile(kind, .readableByOthers(path: "/config/keys/\(kind.rawValue).key")),
         .unsafeKeyFile(kind, .folderWritableByOthers(path: "/config/keys")), .invalidKey(kind, status: 401), .quotaExhausted(kind)]
    } + [.rateLimited(retryAfter: 30), .rateLimited(retryAfter: nil), .overloaded, .refusal, .emptyResponse, .serverError(status: 500),
         .badResponse("HTTP 400: bad request"), .transport("the request timed out")]

    static let reviewOutputErrors: [ReviewOutputError] = [
        .notJSON, .missingField("rating"), .ratingOutOfRange(11), .tooFewBullets(2), .unknownRecommendation("Masterpiece"), .tooFewKeyTracks(1), .moneyTalk,
    ]

    static let httpErrors: [HTTPError] = [
        .invalidURL("ftp://x"), .timedOut, .cannotConnect("connection refused"), .bodyTooLarge(limit: 4 << 20), .tooManyRedirects,
        .redirectRefused("file:///etc/passwd"), .cancelled, .transport("SSL connect error"), .connectionLost("reset by peer"), .invalidRequest("a header holds a line break"),
    ]

    /// The product's banner texts, shown as headlines without a full stop.
    static let unpunctuated: Set<String> = [ScanFailure.notIdentified.message, ScanFailure.cancelled.message, PlaybackError.noTrackList(albumID: 1).message,
                                                AudioPlaybackError.notInMusicFolder(albumID: 1).message,
                                                AudioPlaybackError.trackNotInMusicFolder(albumID: 1, disc: 1, position: 1).message]

    /// What the user must never read.
    static func problems(in text: String) -> [String] {
        var found: [String] = []
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { found.append("empty") }
        if UserMessage.looksLikeADump(text) { found.append("Foundation or enum-dump wording") }
        if text == UserMessage.fallback { found.append("the fallback: no sentence of its own") }
        // An enum case printed with its payload: `missingKey(`, `invalidKey(CrateCore…`.
        if text.range(of: #"\b[a-z]+[A-Z][A-Za-z]*\("#, options: .regularExpression) != nil { found.append("an enum dump") }
        if let last = text.last, !".!?".contains(last), !unpunctuated.contains(text) { found.append("does not end a sentence") }
        if let first = text.first, !first.isUppercase, !first.isNumber, !"/\"".contains(first) { found.append("does not start a sentence") }
        return found
    }

    @Test func everyCaseHasAnExample() {
        for walk in Self.walks {
            let covered = Set(walk.examples.map(walk.index))
            #expect(covered == Set(0..<walk.cases), "\(walk.type): cases \(Set(0..<walk.cases).subtracting(covered)) have no example")
        }
    }

    @Test func everyErrorReadsAsASentence() {
        var sentences: [String] = []
        for walk in Self.walks {
            for error in walk.examples {
                for text in [UserMessage.text(for: error), error.localizedDescription] {
                    #expect(Self.problems(in: text).isEmpty, "\(walk.type) \(error): \(Self.problems(in: text)) in \"\(text)\"")
                }
                sentences.append(UserMessage.text(for: error))
            }
        }
        // The list of user-facing sentences, for review.
        print(Set(sentences).sorted().joined(separator: "\n"))
    }

    /// Foundation's and the system's errors, as a user meets them, are translated too.
    @Test func foundationErrorsAreTranslated() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("crate-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let loop = root.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)

        var errors: [Error] = [CancellationError(), POSIXError(.EIO),
                               NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileReadNoPermission.rawValue, userInfo: [NSFilePathErrorKey: "/photos/a.jpg"]),
                               NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteOutOfSpace.rawValue)]
        for url in [root, loop, root.appendingPathComponent("missing.jpg")] {
            do { _ = try Data(contentsOf: url) } catch { errors.append(error) }
        }
        do { _ = try JSONDecoder().decode([String: Int].self, from: Data("{".utf8)) } catch { errors.append(error) }
        #expect(errors.count == 8)
        for error in errors {
            let text = UserMessage.text(for: error)
            #expect(Self.problems(in: text).isEmpty, "\(error): \(Self.problems(in: text)) in \"\(text)\"")
        }
        #expect(UserMessage.text(for: errors[4]).contains("folder") || UserMessage.text(for: errors[4]).contains("could not read"))
    }

    /// A read that meets a damaged page says so, and what to do; a write says the library is damaged.
    @Test func aDamagedPageIsSaidInWords() {
        for code in [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB] {
            let error = DatabaseError(resultCode: code, message: "database disk image is malformed", sql: "SELECT COUNT(*) FROM album")
            let text = UserMessage.text(for: error)
            #expect(text != UserMessage.fallback)
            #expect(text.contains("damaged") && text.contains("start it again"), "\(text)")
            #expect(!text.contains("malformed") && !text.contains("SELECT"))
            #expect(AppDatabase.userFacing(error, path: "/data/crate.sqlite") as? CrateError == .libraryDamaged(path: "/data/crate.sqlite"))
        }
    }

    /// An error Crate forgot to word is not dumped: it gets the fallback.
    @Test func anUnwordedErrorIsNotDumped() {
        struct Unworded: Error { let rawValue = 6 }
        #expect(UserMessage.text(for: Unworded()) == UserMessage.fallback)
    }
}
