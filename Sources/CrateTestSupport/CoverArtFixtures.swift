import Foundation

/// Cover Art Archive index JSON in its real shape, pointing back at a fixture server.
public enum CoverArtFixtures {
    /// A tiny but well-formed JPEG header + trailer; enough for a magic-bytes check.
    public static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9])

    /// An index whose front image's thumbnails live under `imageBase` (e.g. the fixture server).
    /// The first image is an unapproved front, the second a back cover, the third the approved front.
    public static func index(releaseID: String, imageBase: URL, includeFront: Bool = true) -> String {
        let base = imageBase.absoluteString
        let front = """
        ,{"approved":true,"back":false,"front":true,"id":30688716524,"types":["Front"],
          "image":"\(base)/img/\(releaseID)/30688716524.jpg",
          "thumbnails":{"250":"\(base)/img/\(releaseID)/30688716524-250.jpg","500":"\(base)/img/\(releaseID)/30688716524-500.jpg",
            "small":"\(base)/img/\(releaseID)/30688716524-250.jpg","large":"\(base)/img/\(releaseID)/30688716524-500.jpg"}}
        """
        return """
        {"images":[
          {"approved":false,"back":false,"front":true,"id":"111","types":["Front"],"image":"\(base)/img/unapproved.jpg","thumbnails":{"500":"\(base)/img/unapproved-500.jpg"}},
          {"approved":true,"back":true,"front":false,"id":222,"types":["Back"],"image":"\(base)/img/back.jpg","thumbnails":{"large":"\(base)/img/back-500.jpg"}}
          \(includeFront ? front : "")
         ],
         "release":"https://musicbrainz.org/release/\(releaseID)"}
        """
    }
}
