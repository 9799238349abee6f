import CrateCore
import CrateTestSupport
import Foundation

/// Fuzz harness for every JSON answer Crate decodes (docs/reliability.md #14): MusicBrainz search and
/// lookup (through `MusicBrainzClient`, as the app decodes them, scoring included), the Cover Art
/// Archive index (through `CoverArtClient`), the provider replies (Anthropic, OpenAI-compatible,
/// Ollama), the vision provider's identification answer and the review draft. Each input is fed to all of them; each must decode or throw, never crash.
///
/// Built with `-DCRATE_FUZZ` for libFuzzer (see `scripts/fuzz`); a plain build replays files, and
/// `--write-seeds DIR` writes the fixture bodies as a seed corpus.
enum FuzzJSON {
    static let releaseID = MBID(validating: MusicBrainzFixtures.rumoursReleaseID)!

    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        // Errors are the expected answer to most inputs; only crashes matter here.
        _ = try? IdentificationAnswer.parse(text)
        _ = try? ReviewDraft.parse(text)
        let http = EchoHTTPClient(body: data)
        let base = URL(string: "http://127.0.0.1:9")!
        let musicBrainz = MusicBrainzClient(http: http, baseURL: base, contact: "fuzz@example.org")
        let coverArt = CoverArtClient(http: http, baseURL: base)
        blocking {
            _ = try? await musicBrainz.findRelease(ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac", year: "1977"))
            if let details = try? await musicBrainz.release(releaseID) {
                _ = details.makeTracks(albumID: 1)
            }
            _ = try? await coverArt.frontCover(release: releaseID, releaseGroup: releaseID)
            // The provider replies, as each provider reads them.
            let request = LLMRequest(system: "s", user: "u", purpose: .review)
            _ = try? await ProviderFactory.makeDirect(kind: .anthropic, key: "k", endpoint: base, http: http)!.complete(request)
            _ = try? await ProviderFactory.makeDirect(kind: .openai, key: "k", model: "m", endpoint: base, http: http)!.complete(request)
            _ = try? await ProviderFactory.makeDirect(kind: .ollama, key: nil, model: "m", endpoint: base, http: http)!.complete(request)
        }
    }

    static var seeds: [String] {
        [
            MusicBrainzFixtures.rumoursSearch,
            MusicBrainzFixtures.rumoursLookup,
            MusicBrainzFixtures.notFound,
            CoverArtFixtures.index(releaseID: MusicBrainzFixtures.rumoursReleaseID, imageBase: URL(string: "http://127.0.0.1:9")!),
            ProviderFixtures.rumoursReview,
            ProviderFixtures.anthropicMessage(ProviderFixtures.rumoursReview),
            #"{"id":"c","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"{}","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2}}"#,
            #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":"Warner Bros.","readable_text":"FLEETWOOD MAC RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.93}"#,
            "```json\n{\"artist\":\"Sunn O)))\",\"album\":\"Life Metal\",\"confidence\":\"0.8\"}\n```",
        ]
    }

    /// Runs async client code to completion from libFuzzer's synchronous callback.
    private static func blocking(_ work: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await work()
            done.signal()
        }
        done.wait()
    }
}

/// Answers every request with the fuzz input (JSON endpoints) or a tiny JPEG (image downloads).
private struct EchoHTTPClient: HTTPClient {
    let body: Data

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let wantsImage = request.headers["Accept"]?.hasPrefix("image/") == true
        return HTTPResponse(status: 200, body: wantsImage ? CoverArtFixtures.jpeg : body, url: request.url)
    }
}

#if CRATE_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzJSON.run(bytes.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

/// SwiftPM links every executable with `main` aliased to `<Module>_main`, which shadows
/// libFuzzer's own `main`; so this is the entry point, and it hands over to libFuzzer's driver.
@_cdecl("FuzzJSON_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzJSONTestOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#else
@main
enum FuzzJSONReplay {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count == 2 {
            let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (index, seed) in FuzzJSON.seeds.enumerated() {
                try Data(seed.utf8).write(to: directory.appendingPathComponent("seed-\(index).json"))
            }
            arguments = []
        } else if arguments.isEmpty {
            print("usage: FuzzJSON FILE... | --write-seeds DIR (replays inputs; build with scripts/fuzz to fuzz)")
        }
        for path in arguments {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): unreadable")
                continue
            }
            FuzzJSON.run(data)
            print("\(path): ok")
        }
    }
}
#endif
