/// Numbers a store's page reads and holds the chosen ones until the test lets them go.
actor PageReadGate {
    private let held: Set<Int>
    private(set) var calls = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(holding held: Set<Int>) {
        self.held = held
    }

    var waitingCount: Int { waiting.count }

    /// Returns once this read may go on.
    func enter() async {
        calls += 1
        guard held.contains(calls) else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func releaseAll() {
        let released = waiting
        waiting = []
        for continuation in released { continuation.resume() }
    }
}
