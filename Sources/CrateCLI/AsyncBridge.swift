import Foundation

/// Runs async work from a synchronous `ParsableCommand.run()`: the root command is synchronous,
/// and nothing here needs the main actor, so blocking the main thread on a semaphore is safe.
func runBlocking<T>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            box.result = .success(try await operation())
        } catch {
            box.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    // The semaphore orders the write before this read.
    guard let result = box.result else { throw CancellationError() }
    return try result.get()
}

/// Carries the result across the semaphore; written once before `signal`, read after `wait`.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
