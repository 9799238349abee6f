import Foundation

/// Releases of one release group as MusicBrainz sends them: browse pages
/// (`inc=labels+media`, no track lists) and lookups (with recordings and the release group).
public enum PressingFixtures {
    public static let group = MusicBrainzFixtures.rumoursReleaseGroupID
    public static let vinyl = MusicBrainzFixtures.rumoursReleaseID
    public static let cd = "44444444-4444-4444-8444-444444444444"
    public static let otherGroup = "55555555-5555-4555-8555-555555555555"
    public static let otherGroupRelease = "66666666-6666-4666-8666-666666666666"

    public struct Release: Sendable {
        public var id: String
        public var title = "Rumours"
        public var status: String? = "Official"
        public var date: String? = "1977-02-04"
        public var country: String? = "GB"
        public var format = "12\\\" Vinyl"
        public var label = "Warner Bros. Records"
        public var catalogNumber = "K 56344"
        public var barcode: String? = "075992731310"
        public var trackCount = 11

        public init(id: String, title: String = "Rumours", status: String? = "Official", date: String? = "1977-02-04", country: String? = "GB",
                    format: String = "12\\\" Vinyl", label: String = "Warner Bros. Records", catalogNumber: String = "K 56344",
                    barcode: String? = "075992731310", trackCount: Int = 11) {
            self.id = id
            self.title = title
            self.status = status
            self.date = date
            self.country = country
            self.format = format
            self.label = label
            self.catalogNumber = catalogNumber
            self.barcode = barcode
            self.trackCount = trackCount
        }
    }

    /// One element of a browse page's `releases`.
    public static func browseItem(_ r: Release) -> String {
        func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "null" }
        return """
        {"id":"\(r.id)","title":"\(r.title)","status":\(text(r.status)),"date":\(text(r.date)),"country":\(text(r.country)),
         "barcode":\(text(r.barcode)),"packaging":"None",
         "label-info":[{"catalog-number":"\(r.catalogNumber)","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"\(r.label)"}}],
         "media":[{"position":1,"format":"\(r.format)","track-count":\(r.trackCount)}]}
        """
    }

    public static func browsePage(_ items: [String], count: Int, offset: Int) -> String {
        #"{"release-count":\#(count),"release-offset":\#(offset),"releases":[\#(items.joined(separator: ","))]}"#
    }

    /// A lookup of `r` in `group`, with `titles` as its tracks on one medium.
    public static func lookup(_ r: Release, group: String = group, titles: [String]) -> String {
        let tracks = titles.enumerated().map { index, title in
            let recording = String(format: "%08d-0000-4000-8000-000000000000", index + 1)
            return #"{"id":"t\#(index)","number":"\#(index + 1)","position":\#(index + 1),"title":"\#(title)","length":200000,"recording":{"id":"\#(recording)","title":"\#(title)"}}"#
        }
        return """
        {"id":"\(r.id)","title":"\(r.title)","status":"\(r.status ?? "")","date":"\(r.date ?? "")","country":"\(r.country ?? "")",
         "barcode":"\(r.barcode ?? "")",
         "artist-credit":[{"name":"Fleetwood Mac","joinphrase":"","artist":{"id":"bd13909f-1c29-4c27-a874-d4aaf27c5b1a","name":"Fleetwood Mac"}}],
         "release-group":{"id":"\(group)","primary-type":"Album","first-release-date":"1977-02-04","title":"Rumours"},
         "label-info":[{"catalog-number":"\(r.catalogNumber)","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"\(r.label)"}}],
         "media":[{"position":1,"format":"\(r.format)","track-count":\(titles.count),"tracks":[\(tracks.joined(separator: ","))]}]}
        """
    }

    public static let cdRelease = Release(id: cd, date: "1987", country: "US", format: "CD", label: "Warner Bros. Records", catalogNumber: "3010-2",
                                   barcode: "075992731020")
    public static let vinylRelease = Release(id: vinyl)
    public static let cdTracks = ["Second Hand News", "Dreams", "Never Going Back Again", "Don't Stop"]
    public static let vinylTracks = ["Second Hand News", "Dreams"]
}
