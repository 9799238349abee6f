import CrateCore

/// What Ctrl+Z undoes, besides History's own deletions: the newest change offered with an Undo
/// toast (an album removed, a copy owned, an album wanted). A newer History deletion takes Ctrl+Z
/// over (`yield`); the toast keeps its own button either way.
@MainActor
final class UndoSlot {
    private let toasts: () -> Toasts?
    private var pending: (id: Int, undo: () -> Void, toast: ToastHandle)?
    private var nextID = 0

    init(toasts: @escaping () -> Toasts?) {
        self.toasts = toasts
    }

    /// Shows `message` with Undo; `commit` runs when the toast goes without Undo (the change stays).
    func offer(_ message: String, undo: @escaping () -> Void, commit: (() -> Void)? = nil) {
        guard let toasts = toasts() else { return }
        nextID += 1
        let id = nextID
        var undone = false
        let run = { [weak self] in
            guard !undone else { return }
            undone = true
            if self?.pending?.id == id { self?.pending = nil }
            undo()
        }
        let toast = toasts.show(message, button: L10n.tr("_Undo"), action: run, onDismiss: { [weak self] in
            if self?.pending?.id == id { self?.pending = nil }
            if !undone { commit?() }
        })
        pending = (id, run, toast)
    }

    /// Something newer with its own Undo (a History deletion) takes Ctrl+Z.
    func yield() {
        pending = nil
    }

    /// Ctrl+Z: undoes the newest offered change; false when there is none.
    func undoLast() -> Bool {
        guard let pending else { return false }
        self.pending = nil
        pending.undo()
        pending.toast.dismiss()
        return true
    }
}
