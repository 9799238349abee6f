import CrateCore
import Foundation

/// The `release` object of an album in `scan`, `history` and `collection` output: every key is
/// always present (`null` or `[]` when unknown).
struct ReleaseJSON: Encodable {
    let facts: ReleaseFacts?

    private enum Keys: String, CodingKey {
        case barcode, catalog_numbers, labels, country, date, packaging, status, media
    }

    private enum MediumKeys: String, CodingKey {
        case position, format, title, track_count
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(facts?.barcode, forKey: .barcode)
        try c.encode(facts?.catalogNumbers ?? [], forKey: .catalog_numbers)
        try c.encode(facts?.labels ?? [], forKey: .labels)
        try c.encode(facts?.country, forKey: .country)
        try c.encode(facts?.date, forKey: .date)
        try c.encode(facts?.packaging, forKey: .packaging)
        try c.encode(facts?.status, forKey: .status)
        var media = c.nestedUnkeyedContainer(forKey: .media)
        for medium in facts?.media ?? [] {
            var m = media.nestedContainer(keyedBy: MediumKeys.self)
            try m.encode(medium.position, forKey: .position)
            try m.encode(medium.format, forKey: .format)
            try m.encode(medium.title, forKey: .title)
            try m.encode(medium.trackCount, forKey: .track_count)
        }
    }
}

/// The `verdict` object: `{"kind": "owned"|"wanted"|"seen"|"new", "copies": [...], ...}`.
struct VerdictJSON: Encodable {
    let verdict: Verdict

    private enum Keys: String, CodingKey {
        case kind, copies, seen_at, other_pressing, this_format, title, detail
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(verdict.kind.rawValue, forKey: .kind)
        try c.encode(verdict.copies.map { CopyJSON(copy: $0.copy, summary: $0.summary) }, forKey: .copies)
        try c.encode(verdict.seenAt.map(ISO8601DateFormatter().string(from:)), forKey: .seen_at)
        try c.encode(verdict.otherPressing, forKey: .other_pressing)
        try c.encode(verdict.thisFormat, forKey: .this_format)
        try c.encode(verdict.title, forKey: .title)
        try c.encode(verdict.detail(), forKey: .detail)
    }
}

/// One owned copy.
struct CopyJSON: Encodable {
    let copy: OwnedCopy
    var summary: String?

    private enum Keys: String, CodingKey {
        case id, format, musicbrainz_release_id, note, added_at, summary
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(copy.id, forKey: .id)
        try c.encode(copy.format, forKey: .format)
        try c.encode(copy.releaseID, forKey: .musicbrainz_release_id)
        try c.encode(copy.note, forKey: .note)
        try c.encode(ISO8601DateFormatter().string(from: copy.addedAt), forKey: .added_at)
        if let summary { try c.encode(summary, forKey: .summary) }
    }
}
