import Foundation

/// Discogs database search replies in the real shape (`GET /database/search?type=release…`):
/// relative `uri`, `year` as a string, and the marketplace and community fields Crate must drop.
public enum DiscogsFixtures {
    /// Rumours: the 1977 UK LP first, a 2004 reissue second, an unrelated album third.
    public static let rumoursSearch = """
        {"pagination":{"page":1,"pages":1,"per_page":10,"items":3,"urls":{}},
         "results":[
          {"country":"UK","year":"1977","format":["Vinyl","LP","Album"],"label":["Warner Bros. Records"],"type":"release",
           "genre":["Rock"],"style":["Soft Rock"],"id":1873013,"barcode":["5 011038 563441"],
           "user_data":{"in_wantlist":false,"in_collection":false},"master_id":40985,
           "master_url":"https://api.discogs.com/masters/40985","uri":"/release/1873013-Fleetwood-Mac-Rumours",
           "catno":"K 56344","title":"Fleetwood Mac - Rumours",
           "thumb":"https://i.discogs.com/thumb.jpg","cover_image":"https://i.discogs.com/cover.jpg",
           "resource_url":"https://api.discogs.com/releases/1873013",
           "community":{"want":12873,"have":41232},"format_quantity":1,
           "lowest_price":9.99,"num_for_sale":1342,"formats":[{"name":"Vinyl","qty":"1","descriptions":["LP","Album"]}]},
          {"country":"Europe","year":"2004","format":["CD","Album","Reissue"],"type":"release","id":421391,
           "barcode":["093624877725"],"uri":"/release/421391-Fleetwood-Mac-Rumours","catno":"8122-73779-2",
           "title":"Fleetwood Mac - Rumours","community":{"want":200,"have":9000},"lowest_price":3.5,"num_for_sale":88},
          {"country":"US","year":"1975","type":"release","id":999,"uri":"/release/999-Fleetwood-Mac-Fleetwood-Mac",
           "title":"Fleetwood Mac - Fleetwood Mac","lowest_price":4,"num_for_sale":10}
         ]}
        """

    public static let empty = #"{"pagination":{"page":1,"pages":0,"per_page":10,"items":0,"urls":{}},"results":[]}"#

    /// 401 without a token (or with a refused one).
    public static let unauthorized = #"{"message": "You must authenticate to access this resource."}"#

    /// `GET /oauth/identity` for a personal token.
    public static func identity(username: String) -> String {
        #"{"id": 1578108, "username": "\#(username)", "resource_url": "https://api.discogs.com/users/\#(username)", "consumer_name": "Crate"}"#
    }

    public static let tooManyRequests = #"{"message": "You are making requests too quickly."}"#

    /// The rate-limit headers every authenticated reply carries.
    public static func rateLimitHeaders(remaining: Int, used: Int? = nil) -> [(String, String)] {
        [("X-Discogs-Ratelimit", "60"), ("X-Discogs-Ratelimit-Used", "\(used ?? 60 - remaining)"),
         ("X-Discogs-Ratelimit-Remaining", "\(remaining)")]
    }
}
