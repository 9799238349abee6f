import Foundation

/// Why artwork could not be fetched or kept. "No art exists" is not an error: it is
/// `CoverArtResult.unavailable`.
public enum CoverArtError: Error, Equatable, Sendable, LocalizedError {
    case server(status: Int)
    /// The index JSON could not be read.
    case malformedIndex
    /// The downloaded bytes are not a usable JPEG (reason from the validator).
    case invalidImage(String)
    case network(HTTPError)
    /// The archive asked for a pause longer than Crate waits inside a request.
    case mustWait(seconds: TimeInterval)

    public var errorDescription: String? {
        switch self {
        case .server(let status): return "The Cover Art Archive answered with an error (HTTP \(status))."
        case .malformedIndex: return "The Cover Art Archive sent an answer Crate could not read."
        case .invalidImage(let reason):
            // A clause from the signature check ("it is not a JPEG image"), or a whole sentence
            // from the image checks ("The image is damaged …").
            return reason.hasSuffix(".") ? "The album art could not be used. \(reason)" : "The album art could not be used: \(reason)."
        case .network(let error): return error.unreachable("the Cover Art Archive")
        case .mustWait(let seconds): return "The Cover Art Archive asked Crate to wait \(WaitDuration.spoken(seconds)) before sending more requests."
        }
    }
}

/// The outcome of asking for a release's front cover.
public enum CoverArtResult: Equatable, Sendable {
    case image(CoverArtImage)
    /// Neither the release nor its release group has front art ("Album art unavailable").
    case unavailable

    /// What the UI shows when there is no art.
    public static let unavailableMessage = "Album art unavailable"
}

/// A validated front cover, about 500 px, as JPEG bytes.
public struct CoverArtImage: Equatable, Sendable {
    public var data: Data
    public var sourceURL: URL
    /// True when it came from the release group, because the release itself had none.
    public var fromReleaseGroup: Bool
}
