import Foundation

/// Runs main-actor async work from a synchronous command.
///
/// ArgumentParser calls `run()` on the main thread, and main-actor jobs only run while that
/// thread turns its run loop, so blocking it (a semaphore) would deadlock. Instead this spins the
/// main run loop, which drains the main dispatch queue, until the work has finished.
enum MainActorPump {
    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }

    static func run<T>(_ work: @escaping @MainActor () async -> T) -> T {
        let box = Box<T>()
        Task { @MainActor in box.value = await work() }
        while box.value == nil {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
        return box.value!
    }
}
