import Foundation

/// One track of an album, in canonical order (disc, then position).
public struct Track: Identifiable, Equatable, Sendable, Codable {
    public var id: Int64?
    public var albumID: Int64
    public var disc: Int
    public var position: Int
    /// The printed number ("A1", "3").
    public var number: String?
    public var title: String
    public var durationMs: Int?
    public var recordingID: String?

    public init(id: Int64? = nil, albumID: Int64, disc: Int = 1, position: Int, number: String? = nil, title: String, durationMs: Int? = nil, recordingID: String? = nil) {
        self.id = id
        self.albumID = albumID
        self.disc = disc
        self.position = position
        self.number = number
        self.title = title
        self.durationMs = durationMs
        self.recordingID = recordingID
    }
}
