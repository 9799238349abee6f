import CGtk

/// Connects Swift closures to GObject signals.
///
/// `g_signal_connect` is a macro, so this goes through a closure with a `CallbackBox` that GLib's
/// destroy notify releases, exactly once, when the handler goes: disconnected, its instance
/// disposed, or its `owner` disposed. Views connect through `GObjectScope.connect`, which passes
/// the view's widget as `owner`; the plain forms tie the handler to the instance alone.
enum GSignal {
    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    private static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, owner: UnsafeMutableRawPointer?, callback: GCallback, box: UnsafeMutableRawPointer) -> gulong {
        crate_signal_connect_owned(instance, signal, callback, box, release, owner)
    }

    /// Signals shaped `void (*)(GObject *self, gpointer user_data)`.
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, owner: UnsafeMutableRawPointer? = nil, _ handler: @escaping @MainActor () -> Void) -> gulong {
        // A notify handler gets the GParamSpec before its data: in this shape it would read the
        // spec as its box and crash at the first change.
        precondition(!signal.hasPrefix("notify"), "\(signal): notify handlers take one argument")
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            let handler = CallbackBox<@MainActor () -> Void>.borrow(data)
            MainActor.assumeIsolated { handler() }
        }
        return connect(instance, signal, owner: owner, callback: unsafeBitCast(callback, to: GCallback.self), box: CallbackBox.retain(handler))
    }

    /// Signals shaped `void (*)(GObject *self, gpointer arg, gpointer user_data)`.
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, owner: UnsafeMutableRawPointer? = nil, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
            guard let data else { return }
            let handler = CallbackBox<@MainActor (UnsafeMutableRawPointer?) -> Void>.borrow(data)
            // GTK emits on the main thread (assumeIsolated checks it), so the pointer stays there.
            nonisolated(unsafe) let arg = arg
            MainActor.assumeIsolated { handler(arg) }
        }
        return connect(instance, signal, owner: owner, callback: unsafeBitCast(callback, to: GCallback.self), box: CallbackBox.retain(handler))
    }

    /// `GApplication::open`: `void (*)(GApplication *, GFile **files, gint n_files, gchar *hint, gpointer)`.
    @discardableResult
    static func connectOpen(_ instance: UnsafeMutableRawPointer, owner: UnsafeMutableRawPointer? = nil, _ handler: @escaping @MainActor ([String]) -> Void) -> gulong {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
            guard let data, let files else { return }
            var paths: [String] = []
            for index in 0..<Int(count) {
                guard let file = files[index], let path = g_file_get_path(file) else { continue }
                paths.append(String(cString: path))
                g_free(path)
            }
            let handler = CallbackBox<@MainActor ([String]) -> Void>.borrow(data)
            MainActor.assumeIsolated { handler(paths) }
        }
        return connect(instance, "open", owner: owner, callback: unsafeBitCast(callback, to: GCallback.self), box: CallbackBox.retain(handler))
    }

    @discardableResult
    static func connect(_ instance: OpaquePointer, _ signal: String, owner: UnsafeMutableRawPointer? = nil, _ handler: @escaping @MainActor () -> Void) -> gulong {
        connect(UnsafeMutableRawPointer(instance), signal, owner: owner, handler)
    }

    @discardableResult
    static func connect(_ instance: OpaquePointer, _ signal: String, owner: UnsafeMutableRawPointer? = nil, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        connect(UnsafeMutableRawPointer(instance), signal, owner: owner, handler)
    }
}
