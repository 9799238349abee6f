import CGtk
import CrateCore

extension MainWindow {
    /// Context menus on grid cells, history rows and tracks, all built from the window's actions.
    func installContextMenus() {
        grid.onContextMenu = { summary, widget, point in
            let album = summary.album
            ContextMenu.present([
                [.init(label: "_Play", action: "win.album-play", target: .id(summary.id)),
                 .init(label: "_Open Album", action: "win.album-open", target: .id(summary.id))],
                [.init(label: "_Copy Artist – Title", action: "win.copy-text", target: .text("\(album.artist) – \(album.title)"))],
            ], on: widget, at: point, name: "album \(summary.id)")
        }
        historyList.onContextMenu = { entry, widget, point in
            guard let albumID = entry.album.id else { return }
            ContextMenu.present([
                [.init(label: "_Open Album", action: "win.album-open", target: .id(albumID)),
                 .init(label: "_Play Album", action: "win.album-play", target: .id(albumID))],
                [.init(label: "_Copy Artist – Title", action: "win.copy-text", target: .text("\(entry.album.artist) – \(entry.album.title)"))],
                [.init(label: "_Delete Scan", action: "win.scan-delete", target: .id(entry.id))],
            ], on: widget, at: point, name: "scan \(entry.id)")
        }
        detailPane?.onTrackMenu = { album, index, track, widget, point in
            ContextMenu.present([
                [.init(label: "_Play from Here", action: "win.track-play", target: .id(Int64(index)))],
                [.init(label: "_Copy Artist – Title", action: "win.copy-text", target: .text("\(album.artist) – \(track.title)"))],
            ], on: widget, at: point, name: "track \(index)")
        }
    }

    /// Shows an album in the crate page: selected in the grid when it is there, its pane open.
    func openAlbum(_ id: Int64) {
        showPage("crate")
        library?.select(albumID: id)
        grid.select(albumID: id)
        guard let detail else { return }
        Task { await detail.show(albumID: id) }
    }

    /// Deletes one history scan (with the Undo toast), as Delete does on the selected row.
    func deleteScan(_ id: Int64) {
        guard let position = historyList.position(ofScan: id) else { return }
        historyList.select(position: position)
        deleteSelectedScan()
    }

    /// Puts text on the clipboard and says so.
    func copyText(_ text: String) {
        let clipboard = gdk_display_get_clipboard(gtk_widget_get_display(widget))
        gdk_clipboard_set_text(clipboard, text)
        if TestEvents.isEnabled { TestEvents.note("copied \(text)") }
        toasts.show("Copied “\(text)”", seconds: 2)
    }
}
