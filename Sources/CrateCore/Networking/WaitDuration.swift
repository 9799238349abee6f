import Foundation

/// How a wait is said to the user: "45 seconds", "1 minute", "10 minutes", "2 hours".
/// Rounded up, because "wait 9 minutes" for a 9 m 30 s wait would make the user retry too early.
public enum WaitDuration {
    public static func spoken(_ seconds: TimeInterval) -> String {
        let total = Int(max(1, seconds.rounded(.up)).clamped(to: 1...(Double(Int.max / 2))))
        if total < 60 { return plural(total, "second") }
        let minutes = (total + 59) / 60
        if minutes < 60 { return plural(minutes, "minute") }
        let hours = (minutes + 59) / 60
        return plural(hours, "hour")
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}

private extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        isNaN ? range.lowerBound : Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
