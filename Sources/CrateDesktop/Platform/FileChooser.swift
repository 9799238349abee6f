import CGtk
import CrateCore

/// A native file chooser for one file or folder: shown over `widget`'s window, freed after its
/// answer; `chosen` gets the path (and the chooser, to read choices such as the export's
/// columns) only when the user accepted.
@MainActor
enum FileChooser {
    static func present(over widget: UnsafeMutablePointer<GtkWidget>, title: String, action: GtkFileChooserAction, accept: String,
                        configure: (OpaquePointer) -> Void = { _ in },
                        chosen: @escaping @MainActor (String, OpaquePointer) -> Void) {
        let parent = gtk_widget_get_root(widget).map { crate_window(UnsafeMutableRawPointer($0)) } ?? nil
        let chooser = gtk_file_chooser_native_new(title, parent, action, accept, L10n.tr("_Cancel"))!
        configure(chooser)
        GObjectScope.of(widget).connect(UnsafeMutableRawPointer(chooser), "response") { response in
            defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            guard Int32(truncatingIfNeeded: Int(bitPattern: response)) == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(chooser) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let raw = g_file_get_path(file) else { return }
            let path = String(cString: raw)
            g_free(raw)
            chosen(path, chooser)
        }
        gtk_native_dialog_show(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self))
    }
}
