import Foundation

/// Runs CPU-heavy synchronous work (decoding, hashing) on its own thread and awaits the result.
///
/// Swift's cooperative pool has one thread per core (two here); 100 ms of image work on it
/// stalls every other task — network completions, UI hops — for that long.
public enum BlockingWork {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try work() })
            }
            thread.qualityOfService = .userInitiated
            thread.start()
        }
    }
}
