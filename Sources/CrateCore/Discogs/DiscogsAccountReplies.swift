import Foundation

/// Reads the collection and wantlist replies down to what Crate keeps: counts and release ids.
/// Lenient (a number sent as a string is read), strict on shape (no `releases`/`wants` array is
/// a malformed reply, never "none").
enum DiscogsAccountReplies {
    /// `{"pagination":{"items":N,…},"releases":[…instances…]}`: the total when the pagination
    /// gives one (a release may have more instances than one page), else the instances listed.
    static func copies(in body: Data) throws -> Int {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let releases = object["releases"] as? [Any] else { throw DiscogsError.malformedResponse }
        if let pagination = object["pagination"] as? [String: Any], let items = LenientJSON.double(pagination["items"]),
           items.isFinite, items >= Double(releases.count), items < 1e6 {
            return Int(items)
        }
        return releases.count
    }

    /// One `GET /users/{u}/wants` page: the wanted release ids and the next page, if any.
    static func wantsPage(_ body: Data) throws -> (releaseIDs: [Int], next: URL?) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let wants = object["wants"] as? [Any] else { throw DiscogsError.malformedResponse }
        let ids = wants.compactMap { item -> Int? in
            guard let item = item as? [String: Any] else { return nil }
            return releaseID(item["id"]) ?? releaseID((item["basic_information"] as? [String: Any])?["id"])
        }
        let urls = (object["pagination"] as? [String: Any])?["urls"] as? [String: Any]
        let next = LenientJSON.string(urls?["next"]).flatMap { URL(string: $0) }
        return (ids, next)
    }

    /// `{"instance_id":…,"resource_url":…}` from the collection POST, when readable.
    static func instanceID(in body: Data) -> Int? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        return releaseID(object["instance_id"])
    }

    static func releaseID(_ value: Any?) -> Int? {
        LenientJSON.double(value).flatMap { $0.isFinite && $0 >= 1 && $0 < 1e15 ? Int($0) : nil }
    }
}
