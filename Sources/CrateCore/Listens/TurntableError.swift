import Foundation

/// Why the turntable cannot play what was asked.
public enum TurntableError: Error, Equatable, Sendable, LocalizedError {
    /// The album has no track list to walk.
    case noTracks
    /// No side of this name; `known` lists the record's sides.
    case unknownSide(String, known: [String])
    /// Flipped after the last side.
    case noMoreSides

    public var errorDescription: String? {
        switch self {
        case .noTracks: return L10n.tr("This album has no track list yet, so Crate cannot follow the record.")
        case .unknownSide(let name, let known):
            return L10n.tr("This record has no side %@; its sides are %@.", name, known.joined(separator: ", "))
        case .noMoreSides: return L10n.tr("That was the record's last side.")
        }
    }
}
