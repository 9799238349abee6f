import Foundation

/// `GET /users/{u}/collection/folders/0/releases` and `GET /users/{u}/wants` pages in Discogs'
/// real shape: `pagination.urls.next`, `basic_information` with `formats`, `labels`, `artists`,
/// `notes` by field id — and the community and marketplace fields Crate must never keep.
public enum DiscogsCollectionFixtures {
    /// Page `page` (1-based) of the collection, 100 a page; `next` points at `base`.
    public static func collectionPage(_ records: [DiscogsImportFixtures.Record], page: Int, base: URL, user: String = "digger") -> String {
        let rows = records.flatMap { record in (0..<record.copies).map { (record, $0) } }
        let path = "/users/\(user)/collection/folders/0/releases"
        let entries = slice(rows, page: page).map { record, copy -> [String: Any] in
            ["id": record.releaseID, "instance_id": 900_000_000 + record.releaseID * 3 + copy, "folder_id": 1, "rating": record.releaseID % 6,
             "date_added": "2019-03-14T10:22:31-07:00", "basic_information": information(record),
             "notes": [["field_id": 1, "value": record.media], ["field_id": 2, "value": record.sleeve], ["field_id": 3, "value": record.notes]]]
        }
        return encode(["pagination": pagination(count: rows.count, page: page, base: base, path: path), "releases": entries])
    }

    /// Page `page` of the wantlist.
    public static func wantsPage(_ records: [DiscogsImportFixtures.Record], page: Int, base: URL, user: String = "digger") -> String {
        let entries = slice(records, page: page).map { record -> [String: Any] in
            ["id": record.releaseID, "rating": 0, "date_added": "2020-01-02T03:04:05-08:00", "notes": record.notes,
             "resource_url": "https://api.discogs.com/users/\(user)/wants/\(record.releaseID)", "basic_information": information(record)]
        }
        return encode(["pagination": pagination(count: records.count, page: page, base: base, path: "/users/\(user)/wants"), "wants": entries])
    }

    static func information(_ record: DiscogsImportFixtures.Record) -> [String: Any] {
        let parts = record.format.components(separatedBy: ", ")
        var name = parts.first ?? "Vinyl", quantity = "1"
        if let times = name.firstIndex(of: "×") {
            quantity = String(name[..<times])
            name = String(name[name.index(after: times)...])
        }
        return ["id": record.releaseID, "master_id": record.releaseID + 1, "title": record.title, "year": Int(record.year) ?? 0,
                "thumb": "https://i.discogs.com/t.jpg", "cover_image": "https://i.discogs.com/c.jpg",
                "formats": [["name": name == "LP" ? "Vinyl" : name, "qty": quantity, "descriptions": (name == "LP" ? ["LP"] : []) + parts.dropFirst()]],
                "labels": [["name": record.label, "catno": record.catalogNumber, "entity_type": "1", "id": 5]],
                "artists": [["name": record.artist, "anv": "", "join": "", "role": "", "tracks": "", "id": 7]],
                "genres": ["Rock"], "styles": ["Krautrock"], "community": ["want": 1234, "have": 5678], "lowest_price": 19.99, "num_for_sale": 42]
    }

    static func slice<T>(_ rows: [T], page: Int) -> ArraySlice<T> {
        let start = min((page - 1) * 100, rows.count)
        return rows[start..<min(start + 100, rows.count)]
    }

    static func pagination(count: Int, page: Int, base: URL, path: String) -> [String: Any] {
        let pages = max(1, (count + 99) / 100)
        var urls: [String: String] = [:]
        if page < pages {
            urls["next"] = base.absoluteString + path + "?page=\(page + 1)&per_page=100"
            urls["last"] = base.absoluteString + path + "?page=\(pages)&per_page=100"
        }
        return ["page": page, "pages": pages, "per_page": 100, "items": count, "urls": urls]
    }

    static func encode(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
