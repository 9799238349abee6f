import CGtk
import Foundation

/// Drag and drop onto the window: shows the overlay while hovering, then hands dropped files or
/// images to the window. The C side (shim.h) unpacks GTK's signal arguments.
@MainActor
final class DropHandler {
    private weak var window: MainWindow?
    private let handlers: UnsafeMutablePointer<CrateDropHandlers>

    private init(window: MainWindow) {
        self.window = window
        handlers = UnsafeMutablePointer<CrateDropHandlers>.allocate(capacity: 1)
    }

    isolated deinit {
        handlers.deinitialize(count: 1)
        handlers.deallocate()
    }

    /// Installs the drop target. The handler lives exactly as long as `widget`: the C side
    /// disconnects its callbacks when `widget` is disposed, and the widget's scope lets go of it then.
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, window: MainWindow) {
        let handler = DropHandler(window: window)
        let user = GObjectScope.of(widget).pointer(keeping: handler)
        handler.handlers.initialize(to: CrateDropHandlers(
            hover: { user, inside in
                guard let user else { return }
                let handler = Unmanaged<DropHandler>.fromOpaque(user).takeUnretainedValue()
                MainActor.assumeIsolated { handler.window?.dropOverlay.setVisible(inside != 0) }
            },
            files: { user, paths, count in
                guard let user, let paths else { return }
                let list = (0..<Int(count)).compactMap { paths[$0].map { String(cString: $0) } }
                let handler = Unmanaged<DropHandler>.fromOpaque(user).takeUnretainedValue()
                MainActor.assumeIsolated { handler.window?.receive(files: list) }
            },
            texture: { user, texture in
                guard let user, let texture else { return }
                let handler = Unmanaged<DropHandler>.fromOpaque(user).takeUnretainedValue()
                MainActor.assumeIsolated { handler.window?.receive(texture: texture) }
            },
            user: user))
        crate_install_drop_target(widget, handler.handlers)
    }
}
