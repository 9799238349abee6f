import Foundation
import GRDB

/// Natural ordering for titles and artists: runs of digits compare by value ("Vol. 96" before
/// "Vol. 934"), letters without regard to case or diacritics ("Björk" next to "Bjork").
public enum NaturalOrder {
    /// The SQLite collation name the grid query uses (`ORDER BY title COLLATE crate_natural`).
    public static let collationName = "crate_natural"

    /// Registered on every connection of the library (see `AppDatabase.makeConfiguration`).
    static let collation = DatabaseCollation(collationName) { compare($0, $1) }

    public static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let a = folded(lhs), b = folded(rhs)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                // Compare the two numbers by value: skip leading zeros, then the longer run is
                // larger; equal lengths compare digit by digit.
                var si = i, sj = j
                while si < a.count, a[si] == 0x30 { si += 1 }
                while sj < b.count, b[sj] == 0x30 { sj += 1 }
                var ei = si, ej = sj
                while ei < a.count, isDigit(a[ei]) { ei += 1 }
                while ej < b.count, isDigit(b[ej]) { ej += 1 }
                if ei - si != ej - sj { return ei - si < ej - sj ? .orderedAscending : .orderedDescending }
                var k = 0
                while k < ei - si {
                    if a[si + k] != b[sj + k] { return a[si + k] < b[sj + k] ? .orderedAscending : .orderedDescending }
                    k += 1
                }
                i = ei; j = ej
                continue
            }
            if a[i] != b[j] { return a[i] < b[j] ? .orderedAscending : .orderedDescending }
            i += 1; j += 1
        }
        if a.count - i != b.count - j { return a.count - i < b.count - j ? .orderedAscending : .orderedDescending }
        return .orderedSame
    }

    /// `areInIncreasingOrder` for `sort(by:)`.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) == .orderedAscending
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Lower-case ASCII bytes; other text is folded first (rare in practice, and costlier).
    private static func folded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        if bytes.contains(where: { $0 >= 0x80 }) {
            bytes = Array(text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).utf8)
        }
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] += 0x20 }
        return bytes
    }
}
