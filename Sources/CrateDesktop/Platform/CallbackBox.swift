/// A Swift value handed to C as `void *user_data`.
///
/// `retain` gives GLib one reference; exactly one `release` (or `take`) gives it back, usually
/// from the GLib destroy notify that comes with the `user_data`. Every box is counted in
/// `LiveObjects.boxes`, so a box that is never given back shows up as growth.
final class CallbackBox<Value> {
    let value: Value

    private init(_ value: Value) {
        self.value = value
        LiveObjects.boxes.add(1, ordering: .relaxed)
    }

    deinit {
        LiveObjects.boxes.subtract(1, ordering: .relaxed)
    }

    /// A +1 pointer for C; balance it with `release` or `take`.
    static func retain(_ value: Value) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(CallbackBox(value)).toOpaque()
    }

    /// The value behind a pointer from `retain`, which stays retained.
    static func borrow(_ pointer: UnsafeMutableRawPointer) -> Value {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer).takeUnretainedValue().value
    }

    /// Gives back the reference from `retain`.
    static func release(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer).release()
    }

    /// The value, giving back the reference: for one-shot callbacks (an async GIO completion).
    static func take(_ pointer: UnsafeMutableRawPointer) -> Value {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer).takeRetainedValue().value
    }
}
