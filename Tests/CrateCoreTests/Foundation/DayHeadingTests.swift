import Foundation
import Testing
@testable import CrateCore

@Suite("History day headings")
struct DayHeadingTests {
    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }
    private func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    @Test func relativeThenDated() {
        let now = date(2026, 11, 23, 0, 30)
        let locale = Locale(identifier: "en_GB")
        #expect(DayHeading.title(for: date(2026, 11, 23, 0, 5), now: now, calendar: calendar, locale: locale) == "Today")
        #expect(DayHeading.title(for: date(2026, 11, 22, 23, 59), now: now, calendar: calendar, locale: locale) == "Yesterday")
        let older = DayHeading.title(for: date(2026, 11, 21, 12), now: now, calendar: calendar, locale: locale)
        #expect(older.contains("21") && older.contains("November") && older.contains("Saturday") && !older.contains("2026"))
        let lastYear = DayHeading.title(for: date(2025, 12, 31, 12), now: now, calendar: calendar, locale: locale)
        #expect(lastYear.contains("2025") && lastYear.contains("December"))
    }

    @Test func yesterdayAcrossAMonthAndYearBoundary() {
        let now = date(2027, 1, 1, 9)
        #expect(DayHeading.title(for: date(2026, 12, 31, 22), now: now, calendar: calendar) == "Yesterday")
        #expect(DayHeading.title(for: date(2026, 12, 30, 22), now: now, calendar: calendar) != "Yesterday")
    }

    @Test func newDayOnlyWhenTheCalendarDayChanges() {
        #expect(DayHeading.startsDay(date(2026, 11, 23, 9), after: nil, calendar: calendar))
        #expect(!DayHeading.startsDay(date(2026, 11, 23, 0, 1), after: date(2026, 11, 23, 23, 59), calendar: calendar))
        #expect(DayHeading.startsDay(date(2026, 11, 22, 23, 59), after: date(2026, 11, 23, 0, 1), calendar: calendar))
    }
}
