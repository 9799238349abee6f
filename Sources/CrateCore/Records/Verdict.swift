import Foundation

/// The shop question, answered first on every scan: do I own this, want it, have I seen it?
public struct Verdict: Equatable, Sendable {
    public enum Kind: String, Sendable, Codable {
        case owned
        case wanted
        case seen
        case new
    }

    /// One owned copy as the verdict shows it: "12\" Vinyl, 1977, UK".
    public struct Copy: Equatable, Sendable {
        public var copy: OwnedCopy
        /// Format, year and country of the copy's release, as far as they are known.
        public var summary: String

        public init(copy: OwnedCopy, summary: String) {
            self.copy = copy
            self.summary = summary
        }
    }

    public var kind: Kind
    /// The owned copies (of this album, any pressing).
    public var copies: [Copy]
    /// For `seen`: the last time before this scan the album was scanned or added.
    public var seenAt: Date?
    /// The copies owned are all of another release than the one scanned: "You own this album
    /// on CD; this is the vinyl".
    public var otherPressing: Bool
    /// The format of the release scanned, when known.
    public var thisFormat: String?

    public init(kind: Kind, copies: [Copy] = [], seenAt: Date? = nil, otherPressing: Bool = false, thisFormat: String? = nil) {
        self.kind = kind
        self.copies = copies
        self.seenAt = seenAt
        self.otherPressing = otherPressing
        self.thisFormat = thisFormat
    }

    /// The banner's headline: "Owned", "Wanted", "Seen before", "New to you".
    public var title: String {
        switch kind {
        case .owned: return L10n.tr("Owned")
        case .wanted: return L10n.tr("Wanted")
        case .seen: return L10n.tr("Seen before")
        case .new: return L10n.tr("New to you")
        }
    }

    /// The line under the headline: the copies, the other pressing, or the date seen.
    public func detail(calendar: Calendar = .current, locale: Locale = .current) -> String {
        switch kind {
        case .owned:
            let owned = copies.map(\.summary).filter { !$0.isEmpty }
            if otherPressing {
                let formats = Self.distinct(copies.compactMap(\.copy.format))
                let on = formats.isEmpty ? L10n.tr("another pressing") : formats.joined(separator: ", ")
                if let thisFormat { return L10n.tr("You own this album on %@; this is the %@.", on, thisFormat) }
                return L10n.tr("You own this album on %@; this is another pressing.", on)
            }
            if owned.isEmpty { return L10n.plural("%@ copy", "%@ copies", copies.count, copies.count) }
            return owned.joined(separator: " · ")
        case .wanted:
            return L10n.tr("On your wantlist")
        case .seen:
            guard let seenAt else { return L10n.tr("Already in your crate") }
            let style = Date.FormatStyle(date: .abbreviated, time: .omitted).locale(locale)
            return L10n.tr("Last seen %@", seenAt.formatted(style))
        case .new:
            return L10n.tr("Not in your crate before this scan")
        }
    }

    private static func distinct(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
