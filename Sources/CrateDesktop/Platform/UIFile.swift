import CGtk
import CrateCore
import Foundation

/// One of the window's fixed layouts, a GtkBuilder file of data/ui/ (the header bar, Preferences,
/// the shortcuts window): read from the GResource an install carries (`crate.gresource`, which
/// meson compiles from data/crate.gresource.xml), else from data/ui/ itself — a SwiftPM build
/// compiles nothing, and reading the files means an edited layout shows on the next run. Text
/// marked translatable comes from Crate's gettext domain, as `L10n.tr` does.
///
/// Used for the time of `load`'s body: the builder holds every object it made and lets go of
/// them when the body returns. A top-level widget that is not a window is `take`n (GTK keeps
/// windows itself); everything else lives on inside its parent.
@MainActor
struct UIFile {
    /// Where data/crate.gresource.xml puts the files.
    static let resourcePath = "/dev/crate/Crate/ui/"

    let name: String
    private let builder: OpaquePointer

    /// `name` without ".ui" ("header-bar"). A layout that does not load is a broken install or
    /// checkout, never a state to carry on in: it stops the app with the builder's message.
    static func load<Result>(_ name: String, _ body: (UIFile) -> Result) -> Result {
        L10n.prepare()
        let builder = gtk_builder_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        gtk_builder_set_translation_domain(builder, L10n.domain)
        var error: UnsafeMutablePointer<GError>?
        let source: String
        if resourceRegistered {
            source = resourcePath + name + ".ui"
            gtk_builder_add_from_resource(builder, source, &error)
        } else if let file = DataFiles.url(for: "ui/\(name).ui") {
            source = file.path
            gtk_builder_add_from_file(builder, source, &error)
        } else {
            fatalError("data/ui/\(name).ui not found (no data folder)")
        }
        if let error {
            fatalError("\(source): \(error.pointee.message.map { String(cString: $0) } ?? "does not load")")
        }
        return body(UIFile(name: name, builder: builder))
    }

    /// The object with id `id`: a programming error (fatal) when the file has none.
    func object(_ id: String) -> UnsafeMutableRawPointer {
        guard let object = gtk_builder_get_object(builder, id) else { fatalError("data/ui/\(name).ui has no object \"\(id)\"") }
        return UnsafeMutableRawPointer(object)
    }

    func widget(_ id: String) -> UnsafeMutablePointer<GtkWidget> {
        object(id).assumingMemoryBound(to: GtkWidget.self)
    }

    func menu(_ id: String) -> OpaquePointer {
        OpaquePointer(object(id))
    }

    /// Whether the file has an object `id`.
    func has(_ id: String) -> Bool {
        gtk_builder_get_object(builder, id) != nil
    }

    /// A top-level widget that must outlive the builder, handed over as a new widget is: with a
    /// floating reference, which the parent it is put in takes.
    func take(_ id: String) -> UnsafeMutablePointer<GtkWidget> {
        let widget = self.widget(id)
        g_object_ref(UnsafeMutableRawPointer(widget))
        g_object_force_floating(UnsafeMutablePointer<GObject>(OpaquePointer(widget)))
        return widget
    }

    /// Every object of class `className` (or a subclass), in no particular order.
    func objects(ofClass className: String) -> [UnsafeMutableRawPointer] {
        let type = g_type_from_name(className)
        guard type != 0, let list = gtk_builder_get_objects(builder) else { return [] }
        defer { g_slist_free(list) }
        var found: [UnsafeMutableRawPointer] = []
        var node: UnsafeMutablePointer<GSList>? = list
        while let current = node {
            if let data = current.pointee.data, g_type_check_instance_is_a(data.assumingMemoryBound(to: GTypeInstance.self), type) != 0 {
                found.append(data)
            }
            node = current.pointee.next
        }
        return found
    }

    /// The id a file gave `object`, if any.
    static func id(of object: UnsafeMutableRawPointer) -> String? {
        gtk_buildable_get_buildable_id(OpaquePointer(object)).map { String(cString: $0) }
    }

    // MARK: - The compiled resource

    /// `crate.gresource` beside the executable (meson's build folder) or in the installed data
    /// folder (`<prefix>/share/crate`), registered once.
    private static let resourceRegistered: Bool = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [exe.deletingLastPathComponent().appendingPathComponent("crate.gresource"), DataFiles.url(for: "crate.gresource")]
        guard let file = candidates.compactMap({ $0 }).first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return false }
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_load(file.path, &error) else {
            Log.notice("\(file.path) does not load (\(error?.pointee.message.map { String(cString: $0) } ?? "?")); reading data/ui instead")
            if let error { g_error_free(error) }
            return false
        }
        g_resources_register(resource)
        return true
    }()
}
