import CGtk
import CrateCore

/// The History page: every scan, newest first, and the photos that could not be scanned yet.
/// Owns the list and the history store's subscription; Delete (with Undo) and the rows' menus.
@MainActor
final class HistoryPageController {
    let list = HistoryListView()
    let widget: UnsafeMutablePointer<GtkWidget>
    private(set) var store: HistoryStore?
    /// Whether the window shows this page now.
    var isVisible: () -> Bool {
        get { live.isVisible }
        set { live.isVisible = newValue }
    }
    private weak var host: MainWindow?
    private let empty = EmptyStateView(icon: "document-open-recent-symbolic", title: L10n.tr("Scan your first album to begin"), detail: L10n.tr("Every scan you make is listed here, newest first."))
    private let live = HeldUntilLive<HistoryState>()
    /// The toast offering to undo the last delete.
    private var undoToast: ToastHandle?
    private var tokens: [ObservationToken] = []

    init(host: MainWindow) {
        self.host = host
        widget = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(widget), list.widget, "list")
        gtk_stack_add_named(crate_stack(widget), empty.widget, "empty")
        list.enableDeleteShortcut()
    }

    func attach(_ history: HistoryStore, model: AppModel?) {
        store = history
        history.state.subscribe(initial: true) { [weak self] state in
            self?.render(state)
        }.store(in: &tokens)
        list.onNearEnd = { [weak history] in
            guard let history else { return }
            Task { await history.loadMore() }
        }
        list.onRetry = { [weak model] photo in
            guard let model else { return }
            Task { await model.retry(unscannedPhotoIDs: [photo.id]) }
        }
        list.onIdentify = { [weak self] photo in self?.host?.scanning?.tellCrate(photo: photo) }
        list.onRemove = { [weak history] photo in
            guard let history else { return }
            Task { await history.remove(unscannedPhotoID: photo.id) }
        }
        list.onActivate = { [weak self] entry in
            guard let albumID = entry.album.id else { return }
            self?.host?.openAlbum(albumID)
        }
        list.onContextMenu = { entry, widget, point in
            guard let albumID = entry.album.id else { return }
            ContextMenu.present([
                [.init(label: L10n.tr("_Open Album"), action: "win.album-open", target: .id(albumID)),
                 .init(label: L10n.tr("_Play Album"), action: "win.album-play", target: .id(albumID)),
                 .init(label: L10n.tr("_Spin This Record"), action: "win.album-spin", target: .id(albumID))],
                [.init(label: L10n.tr("_Not This Album?"), action: "win.album-not-this", target: .id(albumID)),
                 .init(label: L10n.tr("_Tell Crate What It Is…"), action: "win.album-identify", target: .id(albumID))],
                [.init(label: L10n.tr("_Copy Artist – Title"), action: "win.copy-text", target: .text("\(entry.album.artist) – \(entry.album.title)"))]
                    + (entry.album.musicBrainzPage.map { [ContextMenu.Item(label: L10n.tr("Open in _MusicBrainz"), action: "win.open-uri", target: .text($0.absoluteString))] } ?? []),
                [.init(label: L10n.tr("_Delete Scan"), action: "win.scan-delete", target: .id(entry.id))],
            ], on: widget, at: point, name: "scan \(entry.id)")
        }
    }

    func focus() { list.focus() }

    /// Fills the page with what waited for it to be shown.
    func makeLive() {
        if let held = live.makeLive() { render(held) }
    }

    /// Selects and scrolls to a scan; false when it is not in the list.
    @discardableResult
    func reveal(scanID: Int64) -> Bool {
        guard let position = list.position(ofScan: scanID) else { return false }
        list.select(position: position)
        list.scroll(to: position)
        return true
    }

    /// Deletes one scan (with the Undo toast), as Delete does on the selected row.
    func delete(scanID id: Int64) {
        guard let position = list.position(ofScan: id) else { return }
        list.select(position: position)
        deleteSelected()
    }

    /// Deletes the selected scan with an Undo toast (a photo without a scan is simply removed).
    /// The selection stays at the same place: on the row that took the deleted one's.
    func deleteSelected() {
        guard let history = store else { return }
        let position = list.selectedPosition
        if let photo = list.selectedUnscanned {
            Task {
                await history.remove(unscannedPhotoID: photo.id)
                if let position { list.select(position: position) }
            }
            return
        }
        guard let id = list.selectedScanID else { return }
        Task {
            await history.delete(scanID: id)
            guard let removed = history.state.value.undoableDeletion, removed.id == id else { return }
            if let position { list.select(position: position) }
            var undone = false
            undoToast?.dismiss()
            host?.undo.yield()
            undoToast = host?.toasts.show(L10n.tr("Deleted scan of “%@”", removed.album.title), button: L10n.tr("_Undo"), action: { [weak self] in
                undone = true
                self?.undoDeletion(of: removed)
            }, onDismiss: {
                // Only this toast's deletion: a later delete has its own toast.
                if !undone, history.state.value.undoableDeletion?.id == id { history.commitDeletion() }
            })
        }
    }

    /// Ctrl+Z: undoes the last delete while its toast is up.
    func undoLastDeletion() {
        guard let entry = store?.state.value.undoableDeletion else { return }
        undoDeletion(of: entry)
        undoToast?.dismiss()
        undoToast = nil
    }

    // MARK: - Private

    /// Undo of a delete: the scan comes back, selected where it was.
    private func undoDeletion(of entry: HistoryEntry) {
        guard let history = store else { return }
        Task {
            await history.undoDelete(entry)
            render(history.state.value)
            if let index = list.position(ofScan: entry.id) { list.select(position: index) }
        }
    }

    private func render(_ state: HistoryState) {
        if case .loaded = state.phase, !live.admit(state) {
            if let message = state.errorMessage { host?.banner.show(message, isError: true) }
            return
        }
        if case .loaded = state.phase {
            list.show(state.entries, unscanned: state.unscanned)
            let isEmpty = state.entries.isEmpty && state.unscanned.isEmpty
            gtk_stack_set_visible_child_name(crate_stack(widget), isEmpty ? "empty" : "list")
        }
        if let message = state.errorMessage { host?.banner.show(message, isError: true) }
    }
}
