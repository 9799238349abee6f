import CGtk
import Foundation

/// `CrateDesktop --screenshot FILE`: renders the window to a PNG once it has settled.
@MainActor
enum Screenshot {
    static func capture(window: UnsafeMutablePointer<GtkWidget>, to path: String, delay: TimeInterval = 1.5, completion: @escaping @MainActor (Bool) -> Void) {
        Task { @MainActor in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            let ok = crate_widget_save_png(window, path) != 0
            FileHandle.standardError.write(Data((ok ? "screenshot: wrote \(path)\n" : "screenshot: FAILED to write \(path)\n").utf8))
            completion(ok)
        }
    }
}
