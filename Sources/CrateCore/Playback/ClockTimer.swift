/// A pending `PlaybackClock` callback. Cancelling it (or releasing it) stops it from firing.
@MainActor
public final class ClockTimer {
    private var onCancel: (() -> Void)?

    public init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    isolated deinit {
        onCancel?()
    }
}
