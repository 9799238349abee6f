import Foundation

/// What one run of the watched folder did, for one short toast ("3 photos from Camera scanned,
/// 1 set aside"), never one message per photo.
public struct PhotoFolderRun: Equatable, Sendable {
    public var scanned = 0
    /// Not covers Crate could name: listed in Preferences and by `crate watch --set-aside`.
    public var setAside = 0
    /// Counts the runs, so two runs that ended alike are still two summaries.
    public var run = 0
    /// The folder's name.
    public var folderName: String

    public init(scanned: Int = 0, setAside: Int = 0, run: Int = 0, folderName: String) {
        self.scanned = scanned
        self.setAside = setAside
        self.run = run
        self.folderName = folderName
    }

    public var text: String {
        let scannedText = L10n.plural("%@ photo from %@ scanned", "%@ photos from %@ scanned", scanned, scanned, folderName)
        guard setAside > 0 else { return scannedText }
        let aside = L10n.plural("%@ set aside", "%@ set aside", setAside, setAside)
        return scanned > 0 ? L10n.tr("%@, %@", scannedText, aside)
            : L10n.plural("%@ photo from %@ set aside: not a cover", "%@ photos from %@ set aside: not covers", setAside, setAside, folderName)
    }
}
