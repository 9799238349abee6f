import CGtk
import CrateCore

/// The About window.
@MainActor
enum AboutDialog {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        let dialog = gtk_about_dialog_new()!
        let about = crate_about_dialog(dialog)
        gtk_about_dialog_set_program_name(about, "Crate")
        gtk_about_dialog_set_version(about, CrateVersion.string)
        gtk_about_dialog_set_comments(about, L10n.tr("Identify record covers, read honest music-first reviews, and keep every album you meet in your crate."))
        gtk_about_dialog_set_logo_icon_name(about, CrateVersion.applicationID)
        gtk_about_dialog_set_license_type(about, GTK_LICENSE_MIT_X11)
        gtk_about_dialog_set_website(about, "https://crate.dev")
        crate_about_set_authors(about, L10n.tr("The Crate developers"))
        if let parent {
            gtk_window_set_transient_for(crate_window(dialog), crate_window(parent))
            gtk_window_set_modal(crate_window(dialog), 1)
        }
        gtk_window_present(crate_window(dialog))
    }
}
