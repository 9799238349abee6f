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

    /// Installs the drop target; the handler lives as long as the process (one window).
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, window: MainWindow) {
        let handler = DropHandler(window: window)
        let user = Unmanaged.passRetained(handler).toOpaque()
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
