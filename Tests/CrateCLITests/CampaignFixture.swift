import CrateCore
import CrateTestSupport
import Foundation
import Synchronization

/// A loopback provider + MusicBrainz + Cover Art Archive that knows one album per photo, for the
/// kill campaign: photo `k` (a copy of `covers/cover-k.jpg`) is identified as "Album k" by
/// "Artist k", whose release lists two tracks and whose front cover is that same cover, so a
/// later scan of the photo matches in tier 0.
struct CampaignFixture {
    let server: FixtureServer
    let photos: [URL]
    /// Faults injected into MusicBrainz and the Cover Art Archive (off unless a test turns them on).
    let faults = CampaignFaults()
    /// The base64 of each photo's vision JPEG (what the provider receives) → the photo's index.
    private let photoByImage: [String: Int]

    init(count: Int, folder: URL) throws {
        server = try FixtureServer()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var photos: [URL] = []
        var photoByImage: [String: Int] = [:]
        var covers: [Data] = []
        for index in 0..<count {
            let source = ScanCommandTests.fixtures.appendingPathComponent(String(format: "covers/cover-%02d.jpg", index))
            let photo = folder.appendingPathComponent(String(format: "photo-%02d.jpg", index))
            try FileManager.default.copyItem(at: source, to: photo)
            photos.append(photo)
            covers.append(try Data(contentsOf: source))
            photoByImage[try ImagePreparer().preparePhoto(at: photo).visionJPEG.base64EncodedString()] = index
        }
        self.photos = photos
        self.photoByImage = photoByImage
        Self.route(server, photoByImage: photoByImage, covers: covers, faults: faults)
    }

    static func releaseID(_ index: Int) -> String {
        String(format: "%08d-0000-4000-8000-%012d", index, index)
    }

    /// The photo each identification request carried, in arrival order (nil: not recognised).
    func identifiedPhotos() -> [Int?] {
        server.requests(path: "/v1/messages").compactMap { request -> Int?? in
            guard let image = Self.imageData(in: request.body) else { return nil }
            return .some(photoByImage[image])
        }
    }

    /// MusicBrainz release lookups per release id.
    func lookupsPerRelease() -> [String: Int] {
        var counts: [String: Int] = [:]
        for request in server.requests where request.path.hasPrefix("/ws/2/release/") {
            counts[String(request.path.dropFirst("/ws/2/release/".count)), default: 0] += 1
        }
        return counts
    }

    /// The `data` of the request's base64 image block, if it has one.
    static func imageData(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let messages = object["messages"] as? [[String: Any]] else { return nil }
        for message in messages {
            for block in message["content"] as? [[String: Any]] ?? [] {
                if let source = block["source"] as? [String: Any], let data = source["data"] as? String { return data }
            }
        }
        return nil
    }

    private static func index(inReleasePath path: String, prefix: String) -> Int? {
        guard path.hasPrefix(prefix) else { return nil }
        return Int(path.dropFirst(prefix.count).prefix(8))
    }

    private static func route(_ server: FixtureServer, photoByImage: [String: Int], covers: [Data], faults: CampaignFaults) {
        let imageBase = server.url("/caa")
        server.route("/v1/messages") { request in
            guard let image = imageData(in: request.body) else {
                return .json(ProviderFixtures.anthropicMessage(ProviderFixtures.rumoursReview))
            }
            guard let index = photoByImage[image] else { return .json(#"{"error":"unknown photo"}"#, status: 500) }
            let answer = #"{"artist":"Artist \#(index)","album":"Album \#(index)","year":"1990","label":null,"readable_text":"ALBUM \#(index)","text_confidence":"high","search_needed":false,"confidence":0.93}"#
            return .json(ProviderFixtures.anthropicMessage(answer))
        }
        server.route("/ws/2/release") { request in
            if faults.strike() { return .text("busy", status: 503) }
            let query = request.queryItem("query") ?? ""
            guard let range = query.range(of: #"Album \d+"#, options: .regularExpression),
                  let index = Int(query[range].dropFirst("Album ".count)) else {
                return .json(#"{"count":0,"offset":0,"releases":[]}"#)
            }
            let id = releaseID(index)
            return .json("""
                {"count":1,"offset":0,"releases":[{"id":"\(id)","score":100,"title":"Album \(index)","status":"Official",
                 "artist-credit":[{"name":"Artist \(index)"}],"release-group":{"id":"\(id)","primary-type":"Album","title":"Album \(index)"},
                 "date":"1990","country":"GB"}]}
                """)
        }
        server.route("/ws/2/release/*") { request in
            if faults.strike() { return .text("busy", status: 503) }
            guard let index = Self.index(inReleasePath: request.path, prefix: "/ws/2/release/") else { return .notFound }
            let id = releaseID(index)
            return .json("""
                {"id":"\(id)","title":"Album \(index)","status":"Official","date":"1990","country":"GB",
                 "artist-credit":[{"name":"Artist \(index)","joinphrase":""}],
                 "release-group":{"id":"\(id)","primary-type":"Album","title":"Album \(index)"},
                 "media":[{"position":1,"format":"CD","track-count":2,"tracks":[
                   {"id":"a\(index)","number":"1","position":1,"title":"Song \(index)A","length":1000},
                   {"id":"b\(index)","number":"2","position":2,"title":"Song \(index)B","length":1000}]}]}
                """)
        }
        server.route("/caa/release/*") { request in
            if faults.strike() { return .text("down", status: 500) }
            guard let index = Self.index(inReleasePath: request.path, prefix: "/caa/release/") else { return .notFound }
            return .json(CoverArtFixtures.index(releaseID: releaseID(index), imageBase: imageBase))
        }
        server.route("/caa/img/*") { request in
            guard let index = Self.index(inReleasePath: request.path, prefix: "/caa/img/"), covers.indices.contains(index) else { return .notFound }
            return .data(covers[index])
        }
    }
}

/// The share of MusicBrainz and Cover Art Archive requests answered with a server error.
final class CampaignFaults: Sendable {
    private let rate = Mutex(0.0)

    func set(_ share: Double) { rate.withLock { $0 = share } }

    func strike() -> Bool {
        let share = rate.withLock { $0 }
        return share > 0 && Double.random(in: 0..<1) < share
    }
}
