import Foundation

/// Preferences' "Connect Last.fm": Last.fm's desktop sign-in, a step at a time.
public struct LastFMConnectState: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case idle
        case asking
        /// The approval page is open in the browser; Done finishes.
        case awaitingApproval(URL)
        case finishing
    }

    public var step: Step = .idle
    /// The Last.fm user once connected (this session), or a note that a session is kept.
    public var connectedAs: String?
    public var isConnected = false
    /// An API key and shared secret are set (without them Last.fm cannot be asked).
    public var hasApplication = false
    public var errorMessage: String?
    /// No browser opened the approval page; its address is on the clipboard.
    public var linkCopied = false

    public init() {}

    /// The connect row's subtitle.
    public var text: String {
        switch step {
        case .asking: return L10n.tr("Asking Last.fm…")
        case .awaitingApproval:
            if linkCopied {
                return L10n.tr("No browser opened, so the Last.fm page’s address is on the clipboard: open it, allow Crate, then press Done.")
            }
            return L10n.tr("Allow Crate on the Last.fm page that opened in your browser, then press Done.")
        case .finishing: return L10n.tr("Finishing…")
        case .idle:
            if let errorMessage { return errorMessage }
            if let connectedAs { return L10n.tr("Connected as %@", connectedAs) }
            if isConnected { return L10n.tr("Connected") }
            if !hasApplication {
                return L10n.tr("Needs a Last.fm API key and shared secret: set CRATE_LASTFM_API_KEY and CRATE_LASTFM_API_SECRET.")
            }
            return L10n.tr("Not connected")
        }
    }
}
