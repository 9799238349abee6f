import Foundation

/// Reads `Retry-After` (RFC 9110 §10.2.3) and OpenAI's `retry-after-ms`.
///
/// Servers send seconds, HTTP dates, negative numbers, huge numbers and garbage; whatever comes
/// back is nil (unusable; fall back to backoff) or a delay clamped to `0...ceiling`.
///
/// The delay is kept as the server said it (up to a day), so a "wait 10 minutes" can be told to
/// the user as such; Crate itself never pauses a service longer than `maximum` on one answer
/// (`RateLimiter.deferHost`), so a hostile or broken server cannot stop Crate for a day.
public enum RetryAfter {
    /// The longest wait Crate records from a server's say-so; more is treated as a day.
    public static let ceiling: TimeInterval = 86_400
    /// The longest pause one answer can put on a service, in this process and (through the
    /// shared pacing file) in every other Crate process.
    public static let maximum: TimeInterval = 120

    /// The pause Crate takes for a server's `requested` delay: at most `maximum`.
    public static func granted(_ requested: TimeInterval) -> TimeInterval {
        min(max(requested, 0), maximum)
    }

    /// The delay a response asks for, if any.
    public static func delay(in response: HTTPResponse, now: Date) -> TimeInterval? {
        if let ms = response.header("retry-after-ms"), let value = number(ms) {
            return clamp(value / 1000)
        }
        return parse(response.header("retry-after"), now: now)
    }

    /// Parses one header value: delay-seconds or an HTTP date.
    public static func parse(_ value: String?, now: Date) -> TimeInterval? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        if let seconds = number(trimmed) {
            return clamp(seconds)
        }
        if let date = httpDate(trimmed) {
            return clamp(date.timeIntervalSince(now))
        }
        return nil
    }

    static func clamp(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite else { return seconds > 0 ? ceiling : 0 }
        return min(max(seconds, 0), ceiling)
    }

    /// Digits with an optional sign and fraction; nothing else ("1e3", "0x10", "3 s" are garbage).
    private static func number(_ text: String) -> Double? {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIINumber),
              parts.count == 1 || parts[1].allSatisfy(\.isASCIINumber) else { return nil }
        return Double(text)
    }

    /// IMF-fixdate, the obsolete RFC 850 form and asctime, as RFC 9110 requires recipients to accept.
    private static func httpDate(_ text: String) -> Date? {
        let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]
        for format in formats {
            // A formatter per call: DateFormatter is not safe to share across threads, and this is rare.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

private extension Character {
    var isASCIINumber: Bool { isASCII && isNumber }
}
