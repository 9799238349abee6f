import Foundation

/// Decides when a file is finished: its size and modification time have stayed the same for
/// `settle` seconds of the injected clock. A file still being written (a phone's upload over
/// Wi-Fi, a copy) keeps changing, so it is never read early. The first sighting starts the
/// count, not the file's mtime: sync tools give a file its phone's (old) mtime.
public struct PhotoSettler: Sendable {
    /// What a look at a file saw.
    public struct Look: Equatable, Sendable {
        public var size: Int64
        /// Modification time in nanoseconds.
        public var modified: Int64

        public init(size: Int64, modified: Int64) {
            self.size = size
            self.modified = modified
        }
    }

    public let settle: TimeInterval
    private var seen: [String: (look: Look, since: Date)] = [:]

    public init(settle: TimeInterval) {
        self.settle = max(0, settle)
    }

    /// Files looked at but not finished yet.
    public var waiting: Int { seen.count }

    /// Takes the current look at every candidate file (by path) and returns those finished now,
    /// sorted; they are forgotten (the caller reads them once). Files no longer there are
    /// forgotten too. An empty file is never finished (it was just created).
    public mutating func observe(_ looks: [String: Look], at now: Date) -> [String] {
        var finished: [String] = []
        for path in seen.keys where looks[path] == nil { seen[path] = nil }
        for (path, look) in looks {
            guard let previous = seen[path], previous.look == look else {
                seen[path] = (look, now)
                continue
            }
            if look.size > 0, now.timeIntervalSince(previous.since) >= settle {
                finished.append(path)
                seen[path] = nil
            }
        }
        return finished.sorted()
    }
}
