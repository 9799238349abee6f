import Foundation

/// The user's collection and wantlist, page after page, for an import
/// (docs/decisions/0045-discogs-import.md). Each entry is reduced to `DiscogsImportItem`:
/// artist, title, label, catalogue number, format, year and the user's own notes — nothing of
/// the marketplace.
extension DiscogsClient {
    /// The most pages one list reads (100 records a page).
    static let maxImportPages = 2_000

    /// `GET /users/{user}/collection/folders/0/releases?per_page=100`, following `urls.next`.
    public func collection(user: String, onPage: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> [DiscogsImportItem] {
        let entries = try await pages(path: "users/\(Self.pathSegment(user))/collection/folders/0/releases", key: "releases", onPage: onPage)
        var items = entries.compactMap { Self.item($0, list: .collection) }
        // The n-th instance of a release (by instance id) is its n-th copy, as in the CSV.
        items.sort { ($0.releaseID, $0.copyIndex) < ($1.releaseID, $1.copyIndex) }
        var copies: [Int: Int] = [:]
        for index in items.indices {
            let copy = (copies[items[index].releaseID] ?? 0) + 1
            copies[items[index].releaseID] = copy
            items[index].copyIndex = copy
        }
        return items
    }

    /// `GET /users/{user}/wants?per_page=100`, following `urls.next`.
    public func wantlist(user: String, onPage: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> [DiscogsImportItem] {
        let entries = try await pages(path: "users/\(Self.pathSegment(user))/wants", key: "wants", onPage: onPage)
        var seen = Set<Int>()
        return entries.compactMap { Self.item($0, list: .wantlist) }.filter { seen.insert($0.releaseID).inserted }
    }

    /// Every page's entries. `urls.next` is followed only on the API's own host (a reply must
    /// not send the token elsewhere); without it, the page number goes up until `pages`.
    private func pages(path: String, key: String, onPage: @Sendable (Int, Int) -> Void) async throws -> [[String: Any]] {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "per_page", value: "100"), URLQueryItem(name: "page", value: "1")]
        guard var url = components?.url else { throw DiscogsError.malformedResponse }
        var entries: [[String: Any]] = []
        for page in 1...Self.maxImportPages {
            let body = try await get(url)
            guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
                  let list = object[key] as? [Any] else { throw DiscogsError.malformedResponse }
            entries += list.compactMap { $0 as? [String: Any] }
            let pagination = object["pagination"] as? [String: Any]
            let pages = LenientJSON.double(pagination?["pages"]).map { Int($0) } ?? page
            onPage(page, pages)
            if let next = LenientJSON.string((pagination?["urls"] as? [String: Any])?["next"]), let nextURL = URL(string: next),
               nextURL.host == baseURL.host, nextURL.port == baseURL.port, nextURL.scheme == baseURL.scheme {
                url = nextURL
            } else if page < pages, list.count > 0 {
                components?.queryItems = [URLQueryItem(name: "per_page", value: "100"), URLQueryItem(name: "page", value: String(page + 1))]
                guard let nextURL = components?.url else { break }
                url = nextURL
            } else {
                break
            }
        }
        return entries
    }

    /// One collection or want entry; nil without a release id.
    static func item(_ entry: [String: Any], list: DiscogsList) -> DiscogsImportItem? {
        let info = entry["basic_information"] as? [String: Any] ?? [:]
        guard let id = LenientJSON.double(entry["id"] ?? info["id"]).flatMap({ $0.isFinite && $0 >= 1 && $0 < 1e12 ? Int($0) : nil }) else { return nil }
        let artists = (info["artists"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
        let artist = artists.enumerated().map { index, artist -> String in
            let name = LenientJSON.string(artist["name"]) ?? ""
            let join = LenientJSON.string(artist["join"]) ?? ""
            return name + (index < artists.count - 1 ? (join.isEmpty || join == "," ? ", " : " \(join) ") : "")
        }.joined()
        let labels = (info["labels"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
        let formats = (info["formats"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
        let format = formats.map { format -> String in
            let quantity = LenientJSON.string(format["qty"]).flatMap { Int($0) } ?? 1
            let name = LenientJSON.string(format["name"]) ?? ""
            let words = [quantity > 1 ? "\(quantity)×\(name)" : name] + LenientJSON.strings(format["descriptions"])
            return words.filter { !$0.isEmpty }.joined(separator: ", ")
        }.joined(separator: " + ")
        var media: String?, sleeve: String?, text: String?
        if let notes = entry["notes"] as? [Any] {
            // Discogs' default fields: 1 media condition, 2 sleeve condition, 3 notes.
            for case let note as [String: Any] in notes {
                let value = LenientJSON.string(note["value"])
                switch LenientJSON.double(note["field_id"]).map({ Int($0) }) {
                case 1: media = value
                case 2: sleeve = value
                default: text = [text, value].compactMap { $0 }.joined(separator: " · ")
                }
            }
        } else {
            text = LenientJSON.string(entry["notes"])
        }
        let rating = LenientJSON.double(entry["rating"]).map { String(Int($0)) }
        let added = LenientJSON.string(entry["date_added"]).flatMap { try? Date($0, strategy: .iso8601) }
        // Until sorted by instance: the instance id orders copies of one release.
        let instance = LenientJSON.double(entry["instance_id"]).map { Int($0) } ?? 0
        return DiscogsImportItem(list: list, releaseID: id, copyIndex: instance, artist: artist, title: LenientJSON.string(info["title"]) ?? "",
                                 label: labels.compactMap { LenientJSON.string($0["name"]) }.first,
                                 catalogNumber: DiscogsImportItem.firstCatalogNumber(labels.compactMap { LenientJSON.string($0["catno"]) }.first),
                                 format: format.isEmpty ? nil : format, year: DiscogsImportItem.year(LenientJSON.string(info["year"])),
                                 note: DiscogsImportItem.note(media: media, sleeve: sleeve, rating: rating, folder: nil, notes: text), addedAt: added)
    }

    /// A user name as one path segment (`appendingPathComponent` escapes the rest).
    static func pathSegment(_ user: String) -> String {
        user.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "/", with: "").replacingOccurrences(of: "..", with: "")
    }
}
