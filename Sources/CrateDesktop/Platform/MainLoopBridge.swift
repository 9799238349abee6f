import CGtk
import Foundation

// libdispatch's hooks for integrating its main queue into a foreign run loop (CoreFoundation uses
// them). On Linux the handle is an eventfd that becomes readable when main-queue work is pending.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32

@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueCallback(_ message: UnsafeMutableRawPointer?)

/// Runs libdispatch's main queue (and so every `@MainActor` task) from the GLib main loop.
///
/// `g_application_run` owns the main thread and never drains the dispatch main queue, so without
/// this bridge `DispatchQueue.main.async` blocks and `@MainActor` tasks never run inside the app.
@MainActor
enum MainLoopBridge {
    private(set) static var isInstalled = false

    static func install() {
        guard !isInstalled else { return }
        isInstalled = true
        let fd = dispatchMainQueueHandle()
        g_unix_fd_add(fd, G_IO_IN, { fd, _, _ in
            var counter: UInt64 = 0
            // Drain the eventfd first so a wake-up that arrives during the callback is not lost.
            _ = withUnsafeMutableBytes(of: &counter) { read(fd, $0.baseAddress, 8) }
            dispatchMainQueueCallback(nil)
            return gboolean(1)  // G_SOURCE_CONTINUE
        }, nil)
    }
}
