import Foundation

/// One read a store shows, kept current: asked off the main actor, asked again after every
/// commit that touches its tables (`AppDatabase.changes(in:)`), answered on the main actor, and a
/// newer request always wins over an older one still under way.
///
/// Every store used to carry its own copy of "generation counter + `Task.detached` + guard"; this
/// is that copy, once (the shape of GRDB's demo app, whose list models own their observation).
///
/// - `request` is called on the main actor when a read starts. It captures the owner's current
///   parameters (the shown album, the search text) in the read it returns, or returns nil when
///   there is nothing to read. To change the parameters, change what it captures and call
///   `refresh()`.
/// - `deliver` gets the answer of the newest request only, on the main actor.
@MainActor
public final class ObservedQuery<Value: Sendable> {
    /// A read with its parameters captured, run off the main actor.
    public typealias Read = @Sendable () async throws -> Value
    public typealias Request = @MainActor () -> Read?
    public typealias Deliver = @MainActor (Result<Value, any Error>) -> Void

    private let changes: () -> AsyncStream<Void>
    private let request: Request
    private let deliver: Deliver
    private var observation: Task<Void, Never>?
    /// Bumped by every request (and by `invalidate()`); an answer is delivered only while its
    /// request is still the newest.
    public private(set) var generation = 0
    /// Reads started so far (tests count them to check that bursts of changes are coalesced).
    public private(set) var readCount = 0
    /// The newest generation that is finished: answered, nothing to read, or invalidated.
    private var settled = 0
    /// Refreshes whose read was overtaken, waiting for a newer one to finish.
    private var overtaken: [(generation: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Follows `tables` of `database`.
    public convenience init(database: AppDatabase, tables: Set<String>,
                            request: @escaping Request, deliver: @escaping Deliver) {
        self.init(changes: { database.changes(in: tables) }, request: request, deliver: deliver)
    }

    /// Follows any stream of changes (each element: read again).
    public init(changes: @escaping () -> AsyncStream<Void>, request: @escaping Request, deliver: @escaping Deliver) {
        self.changes = changes
        self.request = request
        self.deliver = deliver
    }

    isolated deinit {
        observation?.cancel()
    }

    /// Whether `start()` was called (and `stop()` not since).
    public var isRunning: Bool { observation != nil }

    /// Reads now, then again after every change, one read at a time. Calling it while running
    /// does nothing. The change stream buffers one element, so changes that land during a read
    /// cause exactly one more read afterwards, however many there were.
    public func start() {
        guard observation == nil else { return }
        let changes = changes()
        observation = Task { @MainActor [weak self] in
            await self?.refresh()
            for await _ in changes {
                guard let self, !Task.isCancelled else { return }
                await self.refresh()
            }
        }
    }

    /// Stops following the database; an answer still under way is dropped. The owner keeps its
    /// last state, and `refresh()` still reads on demand.
    public func stop() {
        observation?.cancel()
        observation = nil
        invalidate()
    }

    /// Reads now with the owner's current parameters. Returns once the owner holds an answer at
    /// least as new as this request: its own, or, when a newer request overtook it, the newer
    /// one's (so `await refresh()` followed by a look at the owner's state never sees an older
    /// answer). Returns at once when there is nothing to read.
    public func refresh() async {
        generation += 1
        let current = generation
        guard let read = request() else {
            settle(current)
            return
        }
        readCount += 1
        let result = await Task.detached(priority: .userInitiated) { () async -> Result<Value, any Error> in
            do { return .success(try await read()) } catch { return .failure(error) }
        }.value
        guard current == generation else {
            await waitForNewer(than: current)
            return
        }
        deliver(result)
        settle(current)
    }

    /// Drops the answers of reads under way (the owner just changed its state in a way an older
    /// read must not undo, e.g. a delete). Their callers return without an answer.
    public func invalidate() {
        generation += 1
        settle(generation)
    }

    // MARK: - Private

    private func settle(_ finished: Int) {
        settled = max(settled, finished)
        let ready = overtaken.filter { $0.generation < settled }
        overtaken.removeAll { $0.generation < settled }
        for waiter in ready { waiter.continuation.resume() }
    }

    private func waitForNewer(than overtakenGeneration: Int) async {
        guard settled <= overtakenGeneration else { return }
        await withCheckedContinuation { overtaken.append((overtakenGeneration, $0)) }
    }
}
