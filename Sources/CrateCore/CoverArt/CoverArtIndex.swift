import Foundation

/// The Cover Art Archive's index JSON (`GET /release/{mbid}`), decoded leniently:
/// image `id` was a string in old answers, `1200` may be missing, URLs are `http://`.
struct CoverArtIndex: Decodable {
    struct Image: Decodable {
        let approved: Bool
        let front: Bool
        let types: [String]
        let image: String?
        let thumbnails: [String: String]

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            approved = c.lenientBool(AnyKey("approved")) ?? false
            types = c.lenientStrings(AnyKey("types"))
            front = c.lenientBool(AnyKey("front")) ?? types.contains { $0.lowercased() == "front" }
            image = c.lenientString(AnyKey("image"))
            var thumbnails: [String: String] = [:]
            if let nested = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("thumbnails")) {
                for key in nested.allKeys {
                    if let value = nested.lenientString(key) { thumbnails[key.stringValue] = value }
                }
            }
            self.thumbnails = thumbnails
        }

        /// The 500 px thumbnail ("500", or "large" in older answers), else the original.
        var preferredURL: String? { thumbnails["500"] ?? thumbnails["large"] ?? image }
    }

    let images: [Image]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard c.contains(AnyKey("images")) else {
            throw DecodingError.keyNotFound(AnyKey("images"), .init(codingPath: [], debugDescription: "no images"))
        }
        images = c.lenientArray(Image.self, AnyKey("images"))
    }

    /// The front cover: approved ones first, then any marked front.
    var front: Image? {
        let fronts = images.filter { $0.front && $0.preferredURL != nil }
        return fronts.first(where: \.approved) ?? fronts.first
    }
}
