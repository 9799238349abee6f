import Foundation

/// How a scan found its album.
public enum IdentificationMethod: String, Codable, Sendable {
    /// Tier 0: the photo's perceptual hash matched a cover already in the library (offline).
    case localMatch = "local"
    /// Tier 1: the vision provider read the cover.
    case vision
    /// Tier 2: the vision provider's answer was finalised with a search.
    case visionSearch = "vision-search"
    /// Chosen by the user (another candidate, or a manual entry).
    case manual
    /// The record's barcode (read from the photo, typed, or a USB scanner's): the crate, then MusicBrainz.
    case barcode
}

/// One scan: when it happened and what it found. The photo itself is never stored.
public struct Scan: Identifiable, Equatable, Sendable, Codable {
    public var id: Int64?
    public var albumID: Int64
    public var scannedAt: Date
    public var method: IdentificationMethod
    /// 0–1, as reported by the identifier.
    public var confidence: Double?

    public init(id: Int64? = nil, albumID: Int64, scannedAt: Date = Date(), method: IdentificationMethod, confidence: Double? = nil) {
        self.id = id
        self.albumID = albumID
        self.scannedAt = scannedAt
        self.method = method
        self.confidence = confidence
    }
}

/// A row of the history list: a scan with its album.
public struct HistoryEntry: Identifiable, Equatable, Sendable {
    public var scan: Scan
    public var album: Album
    public var id: Int64 { scan.id ?? -1 }

    public init(scan: Scan, album: Album) {
        self.scan = scan
        self.album = album
    }
}
