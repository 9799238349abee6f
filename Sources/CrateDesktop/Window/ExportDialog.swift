import CGtk
import CrateCore
import Foundation

/// The main menu's Export Collection…: a save dialog with a choice of columns — Crate's own
/// (every owned copy and wanted album) or Discogs' (owned copies with a Discogs release, for
/// Discogs' import). Written whole or not at all; a toast says what was written.
@MainActor
enum ExportDialog {
    static func install(on window: MainWindow, database: AppDatabase) {
        Actions.add(to: window.widget, "export") { [weak window] in
            guard let window else { return }
            present(over: window, database: database)
        }
    }

    static func present(over window: MainWindow, database: AppDatabase) {
        FileChooser.present(over: window.widget, title: L10n.tr("Export Collection"), action: GTK_FILE_CHOOSER_ACTION_SAVE,
                            accept: L10n.tr("_Export"), configure: { chooser in
            gtk_file_chooser_set_current_name(chooser, "crate-collection.csv")
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, L10n.tr("CSV files"))
            gtk_file_filter_add_mime_type(filter, "text/csv")
            gtk_file_filter_add_pattern(filter, "*.csv")
            gtk_file_chooser_add_filter(chooser, filter)
            let ids = ["csv", "discogs-csv"]
            let labels = [L10n.tr("Crate (owned and wanted)"), L10n.tr("Discogs collection import")]
            Gtk.withCStringArray(ids) { idArray in
                Gtk.withCStringArray(labels) { labelArray in
                    gtk_file_chooser_add_choice(chooser, "format", L10n.tr("Columns"), idArray, labelArray)
                }
            }
            gtk_file_chooser_set_choice(chooser, "format", "csv")
        }) { [weak window] path, chooser in
            let discogs = gtk_file_chooser_get_choice(chooser, "format").map { String(cString: $0) } == "discogs-csv"
            Task { [weak window] in
                let message = await export(to: URL(fileURLWithPath: path), discogs: discogs, database: database)
                window?.toasts.show(message, seconds: 6)
            }
        }
    }

    /// Writes the file off the main thread; returns what to tell the user.
    nonisolated static func export(to url: URL, discogs: Bool, database: AppDatabase) async -> String {
        do {
            let rows = try await database.reader.read { db in try CollectionExport.rows(in: db) }
            if discogs {
                let result = CollectionExport.discogsCSV(rows)
                try CollectionExport.write(result.text, to: url)
                return result.skipped == 0
                    ? L10n.tr("Exported %@ owned copies for Discogs to “%@”", result.written, url.lastPathComponent)
                    : L10n.tr("Exported %@ owned copies for Discogs to “%@”; %@ without a Discogs release were left out", result.written,
                              url.lastPathComponent, result.skipped)
            }
            try CollectionExport.write(CollectionExport.csv(rows), to: url)
            return L10n.tr("Exported %@ rows to “%@”", rows.count, url.lastPathComponent)
        } catch {
            return UserMessage.text(for: error)
        }
    }
}
