import Foundation

/// One calendar month in the user's time zone: the usage meter's and the budget's period.
public struct UsageMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1...12).contains(month), (1970...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
    }

    /// "2026-11" (what `crate usage --month` takes).
    public init?(parsing text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        self.init(year: year, month: month)
    }

    /// The month `date` falls in, in `calendar`'s time zone.
    public init(containing date: Date, calendar: Calendar = .current) {
        let parts = calendar.dateComponents([.year, .month], from: date)
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
    }

    public var description: String { String(format: "%04d-%02d", year, month) }

    /// The first instant of this month.
    public func start(in calendar: Calendar = .current) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: 1)) ?? Date(timeIntervalSince1970: 0)
    }

    public var next: UsageMonth {
        month == 12 ? UsageMonth(year: year + 1, month: 1) ?? self : UsageMonth(year: year, month: month + 1) ?? self
    }

    /// [start, start of next month).
    public func interval(in calendar: Calendar = .current) -> (start: Date, end: Date) {
        (start(in: calendar), next.start(in: calendar))
    }

    /// "November 2026".
    public func spoken(in calendar: Calendar = .current) -> String {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "MMMM yyyy"
        return formatter.string(from: start(in: calendar))
    }

    public static func < (lhs: UsageMonth, rhs: UsageMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}
