import Foundation
import GRDB

/// Tells each subscriber about the commits that touch its tables, whichever process made them.
///
/// Commits made through this process's writer arrive from `TableChangeRecorder` with the exact
/// tables they changed. GRDB cannot see commits made by other processes (the `crate` CLI writing
/// while the window is open), so while anyone subscribes the feed also polls
/// `PRAGMA data_version` on the writer connection. SQLite changes that number only when *another*
/// connection commits, so this process's own writes are never announced twice. An external
/// commit is announced to every subscriber: which tables it touched is unknown.
///
/// `@unchecked Sendable` is sound because every mutable property is read and written only while
/// `lock` is held; the stream continuations it hands out are themselves thread-safe.
final class DatabaseChangeFeed: @unchecked Sendable {
    private struct Subscriber {
        let tables: Set<String>
        let continuation: AsyncStream<Void>.Continuation
    }

    private let writer: any DatabaseWriter
    /// Nil when no other connection can write (an in-memory database): nothing to poll.
    private let pollInterval: Duration?
    private let lock = NSLock()
    private var subscribers: [UInt64: Subscriber] = [:]
    private var nextID: UInt64 = 0
    private var poller: Task<Void, Never>?
    /// The writer's last seen `data_version`; kept between polling sessions, so commits made
    /// while nobody listened are announced when someone starts listening again.
    private var lastDataVersion: Int?
    private var reportedPollFailure = false

    init(writer: any DatabaseWriter, pollInterval: Duration?) {
        self.writer = writer
        self.pollInterval = pollInterval
    }

    /// A stream that yields once after each commit touching any of `tables`.
    ///
    /// The stream buffers at most one pending element, so a subscriber that is busy while
    /// several commits land hears about them once, after it asks for the next element.
    /// The subscription ends when the iterating task is cancelled or the stream is released.
    func changes(in tables: Set<String>) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = lock.withLock {
            let id = nextID
            nextID += 1
            subscribers[id] = Subscriber(tables: tables, continuation: continuation)
            if poller == nil, let pollInterval {
                poller = startPolling(every: pollInterval)
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    /// Tells the subscribers of any of `tables`.
    func announce(_ tables: Set<String>) {
        let listeners = lock.withLock {
            subscribers.values.filter { !$0.tables.isDisjoint(with: tables) }.map(\.continuation)
        }
        for listener in listeners { listener.yield() }
    }

    /// Tells every subscriber (a commit whose tables are unknown).
    func announceAllTables() {
        let listeners = lock.withLock { subscribers.values.map(\.continuation) }
        for listener in listeners { listener.yield() }
    }

    /// True while the feed polls for other processes' commits (for tests).
    var isPolling: Bool {
        lock.withLock { poller != nil }
    }

    /// Number of live subscriptions (for tests and leak checks).
    var subscriberCount: Int {
        lock.withLock { subscribers.count }
    }

    // MARK: - Private

    private func unsubscribe(_ id: UInt64) {
        let stopped = lock.withLock { () -> Task<Void, Never>? in
            subscribers[id] = nil
            guard subscribers.isEmpty else { return nil }
            defer { poller = nil }
            return poller
        }
        stopped?.cancel()
    }

    /// Must be called with `lock` held.
    private func startPolling(every interval: Duration) -> Task<Void, Never> {
        let writer = self.writer
        return Task.detached(priority: .utility) { [weak self] in
            while !Task.isCancelled {
                do {
                    // On the writer connection: its data_version moves only for other connections' commits.
                    let version = try await writer.writeWithoutTransaction { db in
                        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                    }
                    self?.noteDataVersion(version)
                } catch is CancellationError {
                    return
                } catch {
                    self?.notePollFailure(error)
                }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }

    private func noteDataVersion(_ version: Int) {
        let changed = lock.withLock {
            defer { lastDataVersion = version }
            return lastDataVersion.map { $0 != version } ?? false
        }
        if changed { announceAllTables() }
    }

    private func notePollFailure(_ error: any Error) {
        let first = lock.withLock {
            defer { reportedPollFailure = true }
            return !reportedPollFailure
        }
        if first { Log.error("cannot watch the library for other processes' changes: \(error)") }
    }
}
