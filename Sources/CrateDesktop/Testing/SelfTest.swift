import CGtk
import CrateCore
import Foundation

/// `CrateDesktop --self-test`: proves, inside a running GTK app, that work hopping from a background
/// task to the main actor (and to `DispatchQueue.main`) runs, and that the fixed layouts (the
/// GtkBuilder files, from the GResource beside an installed binary or from data/ui/) build: the
/// header is up with the window, and Preferences and the shortcuts window are opened here; a file
/// that does not load or lacks an id the code uses stops the process. Exits 0 only if all of that
/// ran and the window is mapped; exits 1 after 10 s otherwise.
@MainActor
enum SelfTest {
    static func start(app: CrateApplication, window: MainWindow) {
        GObjectScope.of(app.app).after(seconds: 10) {
            FileHandle.standardError.write(Data("self-test: FAILED — the main actor hop never ran within 10 s\n".utf8))
            exit(1)
        }
        Task.detached(priority: .userInitiated) {
            let backgroundThread = !Thread.isMainThread
            let hopOnMain = await MainActor.run { Thread.isMainThread }
            let dispatchRan = await withCheckedContinuation { continuation in
                DispatchQueue.main.async { continuation.resume(returning: Thread.isMainThread) }
            }
            // Give the window a moment to map, then check it from the main actor.
            try? await Task.sleep(nanoseconds: 300_000_000)
            await MainActor.run {
                let mapped = gtk_widget_get_mapped(window.widget) != 0
                ShortcutsWindow.present(over: window.widget)
                // Preferences need the library open (a first run may still be opening it).
                if app.model != nil { app.presentPreferences() }
                let layouts = gtk_widget_get_parent(window.header.widget) != nil && (app.model == nil || app.preferencesWindow != nil)
                let ok = backgroundThread && hopOnMain && dispatchRan && mapped && layouts
                print("self-test: background task off main: \(backgroundThread); @MainActor hop ran on main: \(hopOnMain); DispatchQueue.main ran: \(dispatchRan); window mapped: \(mapped); fixed layouts built: \(layouts)\(app.model == nil ? " (no library: Preferences skipped)" : "")")
                print(ok ? "self-test: PASSED" : "self-test: FAILED")
                app.quit(status: ok ? 0 : 1)
            }
        }
    }
}
