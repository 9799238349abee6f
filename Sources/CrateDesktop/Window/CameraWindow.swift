import CGtk
import CrateAudio
import CrateCore
import Foundation

/// The camera: a live preview from the webcam; Space, Enter or "Take Photo" takes the frame on
/// screen and scans it like a pasted image, and the window closes. Closing it (Escape, the close
/// button) stops the camera at once: the device is never held after the preview is gone. A
/// missing camera says so in the window, plainly. While it runs, tier 0 looks at a frame every
/// second or so: a cover the crate knows shows its verdict under the preview, live.
@MainActor
final class CameraWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let takeButton: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private var camera: CameraSource?
    /// The frame on screen (what Take Photo scans).
    private var texture: OpaquePointer?
    private var frames = 0
    /// The frame taken, as a texture the caller scans.
    var onTake: ((OpaquePointer) -> Void)?
    /// Tier 0 on a preview frame (nil: no live verdict).
    var recognise: ((RGBImage) async -> LiveSighting?)?
    /// "Open Album" on the live verdict: the camera closes first.
    var onOpenAlbum: ((Int64) -> Void)?
    private let sighting = CameraSightingView()
    private var looking: Task<Void, Never>?
    /// Frames in a row tier 0 did not know: the verdict stays through one blurred frame.
    private var misses = 0

    init() {
        widget = adw_window_new()!
        gtk_window_set_title(crate_window(widget), L10n.tr("Camera"))
        gtk_window_set_default_size(crate_window(widget), 720, 600)
        picture = gtk_picture_new()!
        gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_widget_set_vexpand(picture, 1)
        Gtk.setAccessibleLabel(picture, L10n.tr("Camera preview"))
        status = adw_status_page_new()!
        adw_status_page_set_icon_name(crate_status_page(status), "camera-disabled-symbolic")
        stack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(stack), picture, "preview")
        gtk_stack_add_named(crate_stack(stack), status, "problem")
        gtk_widget_set_vexpand(stack, 1)
        takeButton = gtk_button_new_with_mnemonic(L10n.tr("_Take Photo"))!
        gtk_widget_add_css_class(takeButton, "suggested-action")
        gtk_widget_add_css_class(takeButton, "pill")
        gtk_widget_set_halign(takeButton, GTK_ALIGN_CENTER)
        Gtk.setTooltip(takeButton, L10n.tr("Scan the picture on screen (Space)"))
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { edge(takeButton, 12) }
        let hint = Gtk.label(L10n.tr("Hold the cover flat and fill the frame; Space takes the photo."), classes: ["dim-label", "caption"], xalign: 0.5)
        Gtk.wrap(hint)
        let box = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(box, adw_header_bar_new()!)
        Gtk.append(box, stack)
        Gtk.append(box, sighting.widget)
        Gtk.append(box, hint)
        Gtk.append(box, takeButton)
        adw_window_set_content(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: AdwWindow.self), box)
        let actions = g_simple_action_group_new()!
        Actions.add(to: UnsafeMutableRawPointer(actions), "take") { [weak self] in self?.take() }
        gtk_widget_insert_action_group(widget, "camera", OpaquePointer(actions))
        g_object_unref(UnsafeMutableRawPointer(actions))
        crate_add_local_shortcut(widget, "space|Return|KP_Enter", "camera.take")
        crate_add_local_shortcut(widget, "Escape", "window.close")
        let scope = GObjectScope.of(widget)
        scope.connect(takeButton, "clicked") { [weak self] in self?.take() }
        // Closing (or hiding) stops the camera before anything else.
        scope.connect(widget, "unmap") { [weak self] in self?.stop() }
        sighting.onOpen = { [weak self] albumID in
            guard let self else { return }
            gtk_window_close(crate_window(self.widget))
            self.onOpenAlbum?(albumID)
        }
        scope.keepAlive(self)
    }

    func present(over parent: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_set_transient_for(crate_window(widget), crate_window(parent))
        gtk_window_present(crate_window(widget))
        start()
    }

    // MARK: - Private

    private func start() {
        do {
            camera = try CameraSource(source: CameraSource.sourceDescription())
        } catch {
            return show(problem: error)
        }
        WidgetEvents.say("camera started")
        // About 15 frames a second; each pull takes only what is there (the sink keeps one).
        GObjectScope.of(widget).every(milliseconds: 66) { [weak self] in self?.tick() ?? false }
    }

    private func tick() -> Bool {
        guard let camera else { return false }
        if let problem = camera.error() {
            show(problem: .failed(problem))
            return false
        }
        guard let frame = camera.frame() else { return true }
        let bytes = frame.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let next = gdk_memory_texture_new(Int32(frame.width), Int32(frame.height), GDK_MEMORY_R8G8B8, bytes, gsize(frame.stride))
        g_bytes_unref(bytes)
        if let texture { g_object_unref(UnsafeMutableRawPointer(texture)) }
        texture = next
        gtk_picture_set_paintable(crate_picture(picture), crate_paintable(UnsafeMutableRawPointer(next)))
        frames += 1
        if frames == 1 || frames % 15 == 0 { WidgetEvents.say("camera frames \(frames) \(frame.width)x\(frame.height)") }
        if frames % 15 == 1 { look(at: frame) }
        return true
    }

    /// Tier 0 on this frame, off the main thread, one look at a time.
    private func look(at frame: CameraFrame) {
        guard let recognise, looking == nil, let image = Self.image(frame) else { return }
        looking = Task { [weak self] in
            let found = await recognise(image)
            guard let self, !Task.isCancelled, self.camera != nil else { return }
            self.looking = nil
            self.misses = found == nil ? self.misses + 1 : 0
            guard found != nil || self.misses > 1 else { return }
            guard found?.album.id != self.sighting.albumID else { return }
            self.sighting.show(found)
            WidgetEvents.say("camera sighting \(found.map { "\($0.album.id ?? 0) \($0.verdict.kind.rawValue)" } ?? "none")")
        }
    }

    /// The frame's rows without their padding, as an image tier 0 reads.
    private static func image(_ frame: CameraFrame) -> RGBImage? {
        let row = frame.width * 3
        guard frame.width > 0, frame.height > 0, frame.stride >= row, frame.pixels.count >= frame.stride * (frame.height - 1) + row else { return nil }
        var pixels = [UInt8](repeating: 0, count: row * frame.height)
        frame.pixels.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                for y in 0..<frame.height {
                    target.baseAddress!.advanced(by: y * row).copyMemory(from: source.baseAddress!.advanced(by: y * frame.stride), byteCount: row)
                }
            }
        }
        return RGBImage(width: frame.width, height: frame.height, pixels: pixels)
    }

    private func take() {
        guard let texture, camera != nil else { return }
        onTake?(texture)
        WidgetEvents.say("camera took \(gdk_texture_get_width(texture))x\(gdk_texture_get_height(texture))")
        gtk_window_close(crate_window(widget))
    }

    private func show(problem: CameraError) {
        stop()
        adw_status_page_set_title(crate_status_page(status), L10n.tr("No Camera"))
        // The description is markup: GStreamer's words are escaped.
        let escaped = g_markup_escape_text(problem.message, -1)
        adw_status_page_set_description(crate_status_page(status), escaped)
        g_free(escaped)
        gtk_stack_set_visible_child_name(crate_stack(stack), "problem")
        gtk_widget_set_sensitive(takeButton, 0)
        WidgetEvents.say("camera-problem \(problem.message)")
    }

    private func stop() {
        guard let camera else { return }
        looking?.cancel()
        looking = nil
        camera.stop()
        self.camera = nil
        if let texture { g_object_unref(UnsafeMutableRawPointer(texture)) }
        texture = nil
        WidgetEvents.say("camera stopped")
    }
}
