import CrateCore
import CrateTestSupport
import Synchronization

/// A validate client whose answers the test gives, call by call: each call waits until the test
/// answers it, and says when it started and when its task was cancelled (events, not timings).
actor HeldValidation {
    private var pending: [Int: CheckedContinuation<Result<String, any Error>, Never>] = [:]
    private(set) var secrets: [String] = []
    let started = EventCounter()
    let cancelled = EventCounter()

    func validate(_ secret: String) async throws -> String {
        secrets.append(secret)
        let call = secrets.count
        let cancelled = self.cancelled
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending[call] = continuation
                started.signal()
            }
        } onCancel: {
            cancelled.signal()
        }
        return try result.get()
    }

    /// Lets call `call` (1, 2, …) answer with `result`.
    func answer(_ call: Int, _ result: Result<String, any Error>) {
        pending.removeValue(forKey: call)?.resume(returning: result)
    }

    nonisolated func client<Context: Sendable>() -> CredentialClient<Context> {
        CredentialClient { secret, _ in try await self.validate(secret) }
    }
}

/// Waits until a credential check is no longer running and returns how it ended.
@MainActor
func settled<Context>(_ store: CredentialCheckStore<Context>) async -> CredentialCheck {
    _ = await waitUntil(store.state) { store.state.value.check != .checking }
    return store.state.value.check
}

/// A validate client that answers at once and remembers what it was asked.
final class RecordingValidation<Context: Sendable>: Sendable {
    private let asked = Mutex<[(secret: String, context: Context)]>([])
    private let identity: String

    init(answering identity: String) {
        self.identity = identity
    }

    var calls: [(secret: String, context: Context)] { asked.withLock { $0 } }

    var client: CredentialClient<Context> {
        CredentialClient { secret, context in
            self.asked.withLock { $0.append((secret, context)) }
            return self.identity
        }
    }
}
