import CGtk

/// Connects Swift closures to GObject signals.
///
/// `g_signal_connect` is a macro, so this goes through `g_signal_connect_data` with a retained box
/// that the destroy notify releases when the signal is disconnected or the object finalised.
enum GSignal {
    private final class Box<Handler> {
        let handler: Handler
        init(_ handler: Handler) { self.handler = handler }
    }

    private static func retain<H>(_ handler: H) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Box(handler)).toOpaque()
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    /// Signals shaped `void (*)(GObject *self, gpointer user_data)`.
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) -> gulong {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
        }
        return crate_signal_connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), retain(handler), release)
    }

    /// Signals shaped `void (*)(GObject *self, gpointer arg, gpointer user_data)`.
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
            guard let data else { return }
            let box = Unmanaged<Box<@MainActor (UnsafeMutableRawPointer?) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(arg) }
        }
        return crate_signal_connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), retain(handler), release)
    }

    /// `GApplication::open`: `void (*)(GApplication *, GFile **files, gint n_files, gchar *hint, gpointer)`.
    @discardableResult
    static func connectOpen(_ instance: UnsafeMutableRawPointer, _ handler: @escaping @MainActor ([String]) -> Void) -> gulong {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
            guard let data, let files else { return }
            var paths: [String] = []
            for index in 0..<Int(count) {
                guard let file = files[index], let path = g_file_get_path(file) else { continue }
                paths.append(String(cString: path))
                g_free(path)
            }
            let box = Unmanaged<Box<@MainActor ([String]) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(paths) }
        }
        return crate_signal_connect(instance, "open", unsafeBitCast(callback, to: GCallback.self), retain(handler), release)
    }

    @discardableResult
    static func connect(_ instance: OpaquePointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) -> gulong {
        connect(UnsafeMutableRawPointer(instance), signal, handler)
    }

    @discardableResult
    static func connect(_ instance: OpaquePointer, _ signal: String, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        connect(UnsafeMutableRawPointer(instance), signal, handler)
    }
}
