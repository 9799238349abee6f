import Foundation

/// Why an album's gain could not be measured (`crate music analyze`).
public enum AlbumGainError: Error, Equatable, Sendable {
    /// GStreamer's ReplayGain analysis (rganalysis, in gstreamer1.0-plugins-good) is missing.
    case analysisUnavailable
    /// A file of the album could not be decoded.
    case unreadable(path: String)
    /// The analysis gave no result in time.
    case noResult(path: String)

    public var message: String {
        switch self {
        case .analysisUnavailable:
            return L10n.tr("Install gstreamer1.0-plugins-good to measure album gain.")
        case .unreadable(let path):
            return L10n.tr("%@ could not be decoded; the album's gain was not measured.", PathBytes.displayName(path))
        case .noResult(let path):
            return L10n.tr("The analysis of the album with %@ gave no result; its gain was not measured.", PathBytes.displayName(path))
        }
    }
}

extension AlbumGainError: LocalizedError {
    public var errorDescription: String? { message }
}
