import Foundation

/// What one shared pacing file holds: the next free request slot for a host and the server's
/// "not before" (`Retry-After`), in wall-clock seconds since 1970, plus when it was written.
///
/// Wall-clock time because the file outlives processes (and, in the cache-directory fallback,
/// reboots), which monotonic time does not. The wall clock can go backwards (NTP, a user fixing
/// the date): `written` lets a reader notice and shift the stored times by the same amount, so a
/// clock set back an hour does not make Crate wait an hour.
struct PacingRecord: Equatable, Sendable {
    /// The earliest moment the next paced request may start.
    var nextSlot: TimeInterval = 0
    /// No request to the host before this (a server's `Retry-After`).
    var deferredUntil: TimeInterval = 0
    /// The wall-clock time of the write.
    var written: TimeInterval = 0

    /// The first line of every file; anything else is treated as an empty record.
    static let header = "crate-pacing 1"

    /// Parses a file's bytes. Empty, truncated or garbage content gives an empty record: the worst
    /// case is one request sent without waiting, never a crash or an endless wait.
    init(parsing data: Data) {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(Self.header) else { return }
        var values: [Substring: TimeInterval] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let value = TimeInterval(parts[1]), value.isFinite, value >= 0 else { return }
            values[parts[0]] = value
        }
        guard let written = values["written"], let next = values["next"], let deferred = values["deferred"] else { return }
        self.written = written
        self.nextSlot = next
        self.deferredUntil = deferred
    }

    init(nextSlot: TimeInterval, deferredUntil: TimeInterval, written: TimeInterval) {
        self.nextSlot = nextSlot
        self.deferredUntil = deferredUntil
        self.written = written
    }

    init() {}

    var serialized: Data {
        Data("\(Self.header)\nwritten \(written)\nnext \(nextSlot)\ndeferred \(deferredUntil)\n".utf8)
    }

    /// A record written up to this far "after" `now` is not a clock change: the caller read the
    /// clock, then waited a moment for the lock while another process wrote.
    static let clockJumpTolerance: TimeInterval = 1

    /// The record as seen at `now`: shifted back if the clock went backwards since it was written,
    /// and with any time further ahead than a live process could have asked for dropped.
    ///
    /// Shifted times never go below 0: a negative time would be written, read back as garbage,
    /// and so empty the record — handing out a slot already taken.
    ///
    /// - Parameters:
    ///   - slotHorizon: the furthest a next slot can legitimately be ahead (many processes queued).
    ///   - deferralHorizon: the longest `Retry-After` Crate records.
    func normalized(now: TimeInterval, slotHorizon: TimeInterval, deferralHorizon: TimeInterval) -> PacingRecord {
        var record = self
        if written > now + Self.clockJumpTolerance {
            let jump = written - now
            record.nextSlot = max(0, record.nextSlot - jump)
            record.deferredUntil = max(0, record.deferredUntil - jump)
            record.written = now
        }
        if record.nextSlot > now + slotHorizon { record.nextSlot = now }
        if record.deferredUntil > now + deferralHorizon { record.deferredUntil = now }
        return record
    }
}
