import Foundation
import GRDB

/// Who holds a queued photo's lease (docs/decisions/0006-bulk-scan-queue.md): this machine, a process
/// id, that process's start time, and a token of its own.
///
/// Why each part: the start time, because process ids are reused and a pid alone could make a dead
/// owner look alive; the host, because a library on a shared disk may be used from two machines,
/// and another machine's processes cannot be looked at (only the lease's expiry ends their claim);
/// the token, because one process may open the library twice (the tests do) and each opening is a
/// separate owner.
public struct BatchLeaseOwner: Equatable, Sendable {
    public let host: String
    public let processID: Int32
    /// The process's start time in clock ticks after boot (`/proc/<pid>/stat`, field 22).
    public let startTime: UInt64
    public let token: String

    /// A new owner for this process.
    public init() {
        self.init(host: Self.thisHost, processID: getpid(), startTime: Self.startTime(of: getpid()) ?? 0)
    }

    public init(host: String, processID: Int32, startTime: UInt64, token: String = UUID().uuidString) {
        // Spaces separate the fields of the stored form.
        self.host = host.replacingOccurrences(of: " ", with: "_")
        self.processID = processID
        self.startTime = startTime
        self.token = token
    }

    /// The form kept in `batch_item.leaseOwner`.
    var stored: String { "\(host) \(processID) \(startTime) \(token)" }

    init?(stored: String) {
        let parts = stored.split(separator: " ")
        guard parts.count == 4, let processID = Int32(parts[1]), let startTime = UInt64(parts[2]) else { return nil }
        self.init(host: String(parts[0]), processID: processID, startTime: startTime, token: String(parts[3]))
    }

    /// True only when the owner is certainly gone: a process of this machine whose id is free,
    /// or now names a process started at another time (a kill -9, a crash). An owner on another
    /// machine is never judged gone here.
    var isCertainlyGone: Bool {
        guard host == Self.thisHost else { return false }
        guard let running = Self.startTime(of: processID) else { return true }
        return running != startTime
    }

    /// `crate_lease_gone(leaseOwner)` for the claim's one UPDATE statement, so the "is the holder
    /// still alive" test happens inside the same atomic statement as the claim.
    static let goneFunction = DatabaseFunction("crate_lease_gone", argumentCount: 1, pure: false) { values in
        guard let stored = String.fromDatabaseValue(values[0]) else { return true }
        return BatchLeaseOwner(stored: stored)?.isCertainlyGone ?? true
    }

    private static let thisHost: String = {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// A process's start time, or nil when no such process exists.
    static func startTime(of processID: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces and parentheses) come fields 3, 4, …
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
