/// Numbers a store's page reads and holds the chosen ones until the test lets them go.
actor PageReadGate {
    private let held: Set<Int>
    private(set) var calls = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Tests waiting for a number of reads to be held.
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(holding held: Set<Int>) {
        self.held = held
    }

    var waitingCount: Int { waiting.count }

    /// Returns once this read may go on.
    func enter() async {
        calls += 1
        guard held.contains(calls) else { return }
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            let count = waiting.count
            let ready = watchers.filter { $0.count <= count }
            watchers.removeAll { $0.count <= count }
            for watcher in ready { watcher.continuation.resume() }
        }
    }

    /// Returns once `count` reads are being held (an event, so no guess at how long a read takes).
    func holding(_ count: Int) async {
        guard waiting.count < count else { return }
        await withCheckedContinuation { watchers.append((count, $0)) }
    }

    func releaseAll() {
        let released = waiting
        waiting = []
        for continuation in released { continuation.resume() }
    }
}
