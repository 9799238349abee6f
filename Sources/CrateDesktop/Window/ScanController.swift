import CGtk
import CrateCore
import Foundation

/// Scanning from the window: drop, Ctrl+O, Ctrl+V, files from the command line; the progress
/// card, toasts for failures and runs, Escape to cancel, and photos that waited for the network
/// scanned when it is back.
@MainActor
final class ScanController {
    let store: ScanStore
    let model: AppModel
    /// Called with each budget notice shown.
    var onBudgetNotice: ((String) -> Void)?
    private weak var host: MainWindow?
    /// The scan failure and run summary already shown as toasts (each is shown once).
    private var shownFailure: ScanState.Phase?
    private var shownSummaryRun = 0
    private var tokens: [ObservationToken] = []

    init(host: MainWindow, store: ScanStore, model: AppModel) {
        self.host = host
        self.store = store
        self.model = model
        store.state.subscribe(initial: true) { [weak self] state in
            self?.render(state)
        }.store(in: &tokens)
        store.onSaved = { [weak self] result in
            guard let self else { return }
            self.showBudgetNotice()
            // The grid and history refresh themselves from the database; this only navigates.
            Task { await self.host?.show(scanResult: result) }
        }
        host.progressView.onCancel = { [weak store] in store?.cancel() }
        watchNetwork()
        Actions.add(to: host.widget, "scan") { [weak self] in self?.chooseFiles() }
        Actions.add(to: host.widget, "paste") { [weak self] in self?.pasteImage() }
        // Escape cancels a running scan before it closes anything (MainWindow.escape).
        Actions.add(to: host.widget, "cancel-scan") { [weak store] in store?.cancel() }
        DropHandler.install(on: host.widget, window: host)
        Actions.add(to: host.widget, "scan-barcode") { [weak host] in host?.barcodeBar.open() }
        Actions.add(to: host.widget, "camera") { [weak self] in self?.openCamera() }
        host.barcodeBar.onLookUp = { [weak self] text in self?.lookUp(barcode: text) }
        host.barcodeBar.onClosed = { [weak host] in host?.crate.focus() }
        host.keys.onDigit = { [weak self] digit in self?.startBarcode(typing: digit) ?? false }
        Actions.addID(to: host.widget, "album-identify") { [weak self] id in self?.tellCrate(albumID: id) }
        showBudgetNotice()
    }

    /// The webcam's preview; the frame taken is scanned like a pasted image.
    func openCamera() {
        guard let host else { return }
        let camera = CameraWindow()
        camera.onTake = { [weak self] texture in self?.receive(texture: texture) }
        camera.recognise = { [model] frame in await model.sighting(in: frame) }
        camera.onOpenAlbum = { [weak host] albumID in host?.openAlbum(albumID) }
        camera.present(over: host.widget)
    }

    /// "Tell Crate what it is" for a photo History lists without a scan: the chosen release is
    /// saved as that photo's scan (it leaves History's list).
    func tellCrate(photo: UnscannedPhoto) {
        openIdentify(subject: L10n.tr("“%@”", photo.name)) { [weak store] album in store?.identify(as: album, unscannedPhoto: photo.id) }
    }

    /// "Tell Crate what it is" for an album the scan got wrong: the chosen release replaces the
    /// album in its newest scan, as "Not this album?" does.
    func tellCrate(albumID: Int64) {
        Task { [weak self, model] in
            guard let album = await model.album(id: albumID) else { return }
            guard let (entry, _) = await model.reconsideration(albumID: albumID) else {
                self?.host?.toasts.show(L10n.tr("This album was not scanned: there is no scan to correct"), seconds: 4)
                return
            }
            self?.openIdentify(subject: L10n.tr("the record scanned as “%@”", album.title), artist: album.artist) { [weak self] chosen in
                self?.store.choose(chosen, replacing: entry)
            }
        }
    }

    private func openIdentify(subject: String, artist: String = "", save: @escaping (Album) -> Void) {
        guard let host else { return }
        let dialog = IdentifyDialog(store: model.identify, subject: subject, artist: artist) { [weak model] album in
            await model?.candidateCover(for: album)
        }
        dialog.onChoose = { [weak dialog] album in
            save(album)
            dialog?.close()
        }
        onIdentifyDialog?(dialog)
        dialog.present(over: host.widget)
    }
    /// Called when a "Tell Crate what it is" dialog opens (test events).
    var onIdentifyDialog: ((IdentifyDialog) -> Void)?

    /// A digit typed on the crate page with no entry focused (a USB barcode scanner starting, or
    /// someone typing a barcode) opens the barcode bar and lands in it. Elsewhere digits keep
    /// their meaning. True when the digit was taken.
    private func startBarcode(typing digit: String) -> Bool {
        guard let host, host.welcome == nil, host.visiblePage == "crate", host.artist?.isOpen != true else { return false }
        host.barcodeBar.open(typing: digit)
        return true
    }

    /// A barcode from the bar: refused at once when it cannot be a record's (a wrong check digit,
    /// a book's ISBN), else looked up after whatever is being scanned.
    func lookUp(barcode text: String) {
        do {
            let barcode = try Barcode(typed: text)
            host?.barcodeBar.showMessage(L10n.tr("Looking up %@…", barcode.digits))
            store.scan(barcode: barcode)
        } catch {
            host?.barcodeBar.showMessage(UserMessage.text(for: error), isError: true)
        }
    }

    var isBusy: Bool { store.state.value.isBusy }
    func cancel() { store.cancel() }

    /// 80 % (or all) of this month's budget is used: a banner, once per month.
    func showBudgetNotice() {
        Task { [weak self, model] in
            guard let notice = await model.budgetNotice() else { return }
            self?.host?.banner.show(notice)
            self?.onBudgetNotice?(notice)
        }
    }

    /// Files from a drop, the file chooser, the command line or a file manager.
    func receive(files: [String]) {
        let temporaries = model.temporaryPhotos
        let urls = files.map { URL(fileURLWithPath: $0) }
        Task { [model] in
            try? await model.scan(converting: { urls.map { PhotoImport.scannable($0, temporaries: temporaries) } })
        }
    }

    /// An image that arrived as pixels (pasted, or dragged from a browser).
    func receive(texture: OpaquePointer) {
        let temporaries = model.temporaryPhotos
        let handle = TextureHandle(raw: OpaquePointer(g_object_ref(UnsafeMutableRawPointer(texture))))
        Task { [model] in
            do {
                try await model.scan(converting: {
                    defer { g_object_unref(UnsafeMutableRawPointer(handle.raw)) }
                    return [try PhotoImport.jpeg(from: handle.raw!, temporaries: temporaries)]
                })
            } catch {
                host?.toasts.show((error as? ImageError)?.message ?? (error as? CrateError)?.message ?? L10n.tr("This image could not be read."))
            }
        }
    }

    /// "cover.jpg was not identified", "cover.jpg waits for the network".
    static func toastTitle(file: URL, _ failure: ScanFailure) -> String {
        let name = file.lastPathComponent
        switch failure {
        case .notIdentified: return L10n.tr("“%@” was not identified", name)
        case .badImage: return L10n.tr("“%@” is not a photo Crate can read", name)
        case .offline: return L10n.tr("No connection — “%@” will be scanned when it is back", name)
        case .providerKey: return L10n.tr("“%@” needs an identification key (Preferences)", name)
        case .mustWait: return L10n.tr("“%@” waits: a service asked for a pause", name)
        case .budgetUsedUp: return L10n.tr("“%@” waits: this month's budget is used up (Preferences)", name)
        case .cancelled: return L10n.tr("Scan of “%@” cancelled", name)
        case .other: return L10n.tr("“%@” could not be scanned", name)
        }
    }

    // MARK: - Private

    private func render(_ state: ScanState) {
        guard let host else { return }
        host.progressView.render(state)
        host.barcodeBar.setBusy(state.isBusy && state.barcode != nil)
        if let barcode = state.barcode, renderBarcode(state, barcode) { return }
        // One photo that could not be scanned: a toast that names it and leads to its History
        // row (which keeps the reason, Retry and Remove). Several photos: one summary at the end.
        if case .failed(let file, let failure) = state.phase, failure != .cancelled, state.phase != shownFailure {
            shownFailure = state.phase
            if case .budgetUsedUp = failure { showBudgetNotice() }
            if state.total > 1 {
                // Part of a run: its summary says it.
            } else if let file {
                host.toasts.show(Self.toastTitle(file: file, failure), button: L10n.tr("_Show"), action: { [weak host] in host?.showPage("history") })
            } else {
                host.toasts.show(failure.message)
            }
        }
        if case .failed = state.phase {} else { shownFailure = nil }
        if let summary = state.summary, summary.run != shownSummaryRun {
            shownSummaryRun = summary.run
            if summary.hasProblems {
                host.toasts.show(summary.text, button: L10n.tr("_Show"), seconds: 8, action: { [weak host] in host?.showPage("history") })
            } else {
                host.toasts.show(summary.text)
            }
        }
    }

    /// A barcode's look-up ended: found, the bar closes (the pane shows the verdict); not found,
    /// the bar says why, with the digits kept. True when the state was the barcode's to show.
    private func renderBarcode(_ state: ScanState, _ barcode: Barcode) -> Bool {
        guard let host else { return false }
        switch state.phase {
        case .complete:
            if host.barcodeBar.isOpen { host.barcodeBar.close() }
            return false
        case .failed(_, let failure) where failure != .cancelled && state.phase != shownFailure:
            shownFailure = state.phase
            let text = failure == .notIdentified
                ? L10n.tr("No record with barcode %@ was found, in your crate or on MusicBrainz.", barcode.digits)
                : failure.message
            if host.barcodeBar.isOpen { host.barcodeBar.showMessage(text, isError: true) } else { host.toasts.show(text) }
            return true
        case .failed(_, .cancelled):
            host.barcodeBar.showMessage(nil)
            return false
        default:
            return false
        }
    }

    /// The network came back: photos that waited for it are scanned.
    private func watchNetwork() {
        guard let host, let monitor = g_network_monitor_get_default() else { return }
        var wasAvailable = g_network_monitor_get_network_available(monitor) != 0
        GObjectScope.of(host.widget).connect(UnsafeMutableRawPointer(monitor), "network-changed") { [weak model] in
            let available = g_network_monitor_get_network_available(monitor) != 0
            defer { wasAvailable = available }
            guard available, !wasAvailable, let model else { return }
            Task { await model.networkCameBack() }
        }
    }

    private func chooseFiles() {
        guard let host else { return }
        let chooser = gtk_file_chooser_native_new(L10n.tr("Scan Cover Photos"), crate_window(host.widget), GTK_FILE_CHOOSER_ACTION_OPEN, L10n.tr("_Scan"), L10n.tr("_Cancel"))!
        let fileChooser = chooser
        gtk_file_chooser_set_select_multiple(fileChooser, 1)
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, "Images")
        gtk_file_filter_add_pixbuf_formats(filter)
        gtk_file_filter_add_mime_type(filter, "image/jpeg")
        gtk_file_chooser_add_filter(fileChooser, filter)
        GObjectScope.of(host.widget).connect(UnsafeMutableRawPointer(chooser), "response") { [weak self] response in
            defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            guard Int32(truncatingIfNeeded: Int(bitPattern: response)) == GTK_RESPONSE_ACCEPT.rawValue,
                  let files = gtk_file_chooser_get_files(fileChooser) else { return }
            var paths: [String] = []
            let model = crate_list_model(UnsafeMutableRawPointer(files))
            for index in 0..<g_list_model_get_n_items(model) {
                guard let file = g_list_model_get_item(model, index) else { continue }
                if let path = g_file_get_path(OpaquePointer(file)) {
                    paths.append(String(cString: path))
                    g_free(path)
                }
                g_object_unref(file)
            }
            g_object_unref(UnsafeMutableRawPointer(files))
            self?.receive(files: paths)
        }
        gtk_native_dialog_show(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self))
    }

    private func pasteImage() {
        guard let host else { return }
        // GIO always completes the read, so the box is given back there, once; it holds the
        // window weakly in case the window closed meanwhile.
        let box = CallbackBox<WeakWindow>.retain(WeakWindow(window: host))
        crate_clipboard_read_texture(host.widget, { texture, user in
            guard let user else { return }
            let weak = CallbackBox<WeakWindow>.take(user)
            MainActor.assumeIsolated {
                guard let window = weak.window else { return }
                if let texture { window.receive(texture: texture) }
                // Not an error: a quiet note, not the red banner.
                else { window.toasts.show(L10n.tr("The clipboard has no image to scan"), seconds: 3) }
            }
        }, box)
    }
}
