import Dispatch
import Foundation
import Synchronization

/// Ctrl+C (SIGINT) or SIGTERM during long work cancels it instead of ending the process at once,
/// so a queued photo is put back untouched rather than left looking like a crash on it. A second
/// signal ends the process the usual way.
enum Interrupt {
    /// Set once a signal arrived during `cancellingOnSignal`.
    private static let received = Mutex(false)

    static var wasReceived: Bool { received.withLock { $0 } }

    static func cancellingOnSignal<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                received.withLock { $0 = true }
                task.cancel()
                // The next one is not caught: a run that does not stop can still be ended.
                signal(number, SIG_DFL)
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return try await task.value
    }
}
