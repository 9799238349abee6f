import Synchronization

/// Counts of what Swift has handed to GLib and not yet got back: boxes held as `user_data`,
/// scopes, GLib sources, and Swift objects kept alive by a widget. A window that is opened and
/// closed must bring every count back to where it was (`--window-cycle-test` checks this).
///
/// Atomics, not main-actor state: GLib may run a destroy notify wherever the last reference
/// to an object is dropped.
enum LiveObjects {
    static let boxes = Atomic<Int>(0)
    static let scopes = Atomic<Int>(0)
    static let sources = Atomic<Int>(0)
    static let keptObjects = Atomic<Int>(0)

    struct Snapshot: Equatable, CustomStringConvertible {
        var boxes: Int
        var scopes: Int
        var sources: Int
        var keptObjects: Int

        var description: String {
            "boxes \(boxes), scopes \(scopes), sources \(sources), kept objects \(keptObjects)"
        }
    }

    static var snapshot: Snapshot {
        Snapshot(boxes: boxes.load(ordering: .relaxed), scopes: scopes.load(ordering: .relaxed),
                 sources: sources.load(ordering: .relaxed), keptObjects: keptObjects.load(ordering: .relaxed))
    }
}
