import CGtk
import CrateCore
import Foundation

/// MPRIS 2 (`org.mpris.MediaPlayer2` and `.Player`) on the session bus, so media keys and GNOME
/// Shell's media controls drive Crate: PlayPause, Play, Pause, Next, Previous, Stop, Metadata
/// (with `mpris:artUrl`), PlaybackStatus, and PropertiesChanged whenever the playback state moves.
/// While a record spins on the user's turntable, MPRIS shows and drives the turntable instead.
/// GDBus calls back on the GTK main loop, which runs on the main thread.
@MainActor
final class MprisService {
    static let busName = "org.mpris.MediaPlayer2.crate"
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    private let store: PlaybackStore
    private let turntable: TurntableStore?
    private let artworkDirectory: URL
    /// Raise: present the window.
    var onRaise: (() -> Void)?
    var onQuit: (() -> Void)?
    private var connection: OpaquePointer?
    private var ownerID: guint = 0
    private var registrations: [guint] = []
    private var tokens: [ObservationToken] = []
    private var published: [String: String] = [:]
    /// What the Diagnostics view says about MPRIS.
    private(set) var statusText = L10n.tr("Not started")

    init(store: PlaybackStore, turntable: TurntableStore? = nil, artworkDirectory: URL) {
        self.store = store
        self.turntable = turntable
        self.artworkDirectory = artworkDirectory
    }

    /// The turntable while a record spins, else the speakers' playback.
    private var spinning: TurntableStore? {
        turntable.flatMap { $0.state.value.isActive ? $0 : nil }
    }

    private var nowPlaying: PlaybackState {
        spinning?.state.value.playback ?? store.state.value
    }

    /// Asks for the bus name; without a session bus this does nothing (and says so in the log).
    func start() {
        guard ownerID == 0 else { return }
        let data = Unmanaged.passUnretained(self).toOpaque()
        statusText = L10n.tr("Waiting for the session bus")
        ownerID = g_bus_own_name(G_BUS_TYPE_SESSION, Self.busName, G_BUS_NAME_OWNER_FLAGS_NONE, mprisBusAcquired, nil, mprisNameLost, data, nil)
        tokens = [store.state.subscribe { [weak self] _ in self?.emitChanges() }]
        if let turntable { tokens.append(turntable.state.subscribe { [weak self] _ in self?.emitChanges() }) }
    }

    func stop() {
        if let connection {
            for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        }
        registrations = []
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        ownerID = 0
        tokens = []
    }

    fileprivate func busAcquired(_ connection: OpaquePointer) {
        self.connection = connection
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else {
            Log.error("MPRIS: introspection data rejected: \(error.map { String(cString: $0.pointee.message) } ?? "")")
            g_clear_error(&error)
            return
        }
        let data = Unmanaged.passUnretained(self).toOpaque()
        for name in ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player"] {
            guard let interface = g_dbus_node_info_lookup_interface(node, name) else { continue }
            let id = g_dbus_connection_register_object(connection, Self.objectPath, interface, Self.vtable, data, nil, &error)
            if id == 0 {
                Log.error("MPRIS: could not register \(name): \(error.map { String(cString: $0.pointee.message) } ?? "")")
                g_clear_error(&error)
            } else {
                registrations.append(id)
            }
        }
        g_dbus_node_info_unref(node)
        published = snapshot()
        statusText = registrations.count == 2 ? L10n.tr("Published on the session bus as %@", Self.busName) : L10n.tr("Could not publish on the session bus")
    }

    fileprivate func nameLost() {
        statusText = L10n.tr("Not available: no session bus, or another Crate owns %@", Self.busName)
        Log.debug("MPRIS: no session bus, or another Crate owns \(Self.busName)")
    }

    // MARK: - Methods and properties

    fileprivate func call(interface: String, method: String) {
        if let spinning {
            switch method {
            case "PlayPause": spinning.togglePlay()
            case "Play": if spinning.state.value.phase != .playing { spinning.togglePlay() }
            case "Pause": if spinning.state.value.phase == .playing { spinning.togglePlay() }
            case "Next": spinning.skip()
            case "Stop": spinning.stop()
            case "Raise": onRaise?()
            case "Quit": onQuit?()
            default: break  // "Previous": a needle is not put back by Crate.
            }
            return
        }
        switch method {
        case "PlayPause": Task { await store.togglePlay() }
        case "Play": if store.state.value.status != .playing { Task { await store.togglePlay() } }
        case "Pause": if store.state.value.status == .playing { Task { await store.togglePlay() } }
        case "Next": Task { await store.next() }
        case "Previous": Task { await store.previous() }
        case "Stop": Task { await store.stop() }
        case "Raise": onRaise?()
        case "Quit": onQuit?()
        default: break
        }
    }

    fileprivate func property(_ name: String) -> OpaquePointer? {
        let state = nowPlaying
        switch name {
        case "Identity": return g_variant_new_string("Crate")
        case "DesktopEntry": return g_variant_new_string("dev.crate.Crate")
        case "CanQuit", "CanRaise": return g_variant_new_boolean(1)
        case "HasTrackList", "Fullscreen", "CanSetFullscreen", "CanSeek": return g_variant_new_boolean(0)
        case "SupportedUriSchemes", "SupportedMimeTypes": return Self.strv([])
        case "PlaybackStatus": return g_variant_new_string(Self.status(state))
        case "LoopStatus": return g_variant_new_string("None")
        case "Shuffle": return g_variant_new_boolean(0)
        case "Rate", "MinimumRate", "MaximumRate", "Volume": return g_variant_new_double(1)
        case "Position": return g_variant_new_int64(gint64(state.positionMs) * 1000)
        case "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanControl": return g_variant_new_boolean(1)
        case "Metadata": return metadata(state)
        default: return nil
        }
    }

    static func status(_ state: PlaybackState) -> String {
        switch state.status {
        case .playing: return "Playing"
        case .paused: return "Paused"
        case .stopped: return "Stopped"
        }
    }

    private func metadata(_ state: PlaybackState) -> OpaquePointer {
        var entries: [(String, OpaquePointer)] = []
        if let album = state.nowPlayingAlbum, let track = state.nowPlayingTrack, let id = album.id {
            entries.append(("mpris:trackid", g_variant_new_object_path("/dev/crate/Crate/track/\(id)_\(track.disc)_\(track.position)")))
            entries.append(("xesam:title", g_variant_new_string(track.title)))
            entries.append(("xesam:album", g_variant_new_string(album.title)))
            entries.append(("xesam:artist", Self.strv([album.artist])))
            entries.append(("xesam:trackNumber", g_variant_new_int32(Int32(clamping: track.position))))
            entries.append(("xesam:discNumber", g_variant_new_int32(Int32(clamping: track.disc))))
            let length = state.durationMs > 0 ? state.durationMs : (track.durationMs ?? 0)
            if length > 0 { entries.append(("mpris:length", g_variant_new_int64(gint64(length) * 1000))) }
            if album.artworkStatus == .available, let url = album.artworkURL(in: artworkDirectory) {
                entries.append(("mpris:artUrl", g_variant_new_string(url.absoluteString)))
            }
        } else {
            entries.append(("mpris:trackid", g_variant_new_object_path(Self.noTrack)))
        }
        return Self.dictionary(entries)
    }

    /// What clients see now, to tell which properties changed.
    private func snapshot() -> [String: String] {
        let state = nowPlaying
        let track = state.nowPlayingTrack.map { "\(state.nowPlayingAlbum?.id ?? 0)/\($0.disc)/\($0.position)/\(state.durationMs)" } ?? ""
        return ["PlaybackStatus": Self.status(state), "Metadata": track]
    }

    private func emitChanges() {
        guard let connection, !registrations.isEmpty else { return }
        let now = snapshot()
        let changed = now.keys.sorted().filter { now[$0] != published[$0] }
        published = now
        guard !changed.isEmpty else { return }
        let values = changed.compactMap { name in property(name).map { (name, $0) } }
        let children: [OpaquePointer?] = [g_variant_new_string("org.mpris.MediaPlayer2.Player"), Self.dictionary(values), Self.strv([])]
        let parameters = children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 3) }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged", parameters, nil)
    }

    // MARK: - GVariant helpers

    static func dictionary(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        let builder = g_variant_builder_new(type)
        for (key, value) in entries {
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        let result = g_variant_builder_end(builder)!
        g_variant_builder_unref(builder)
        return result
    }

    static func strv(_ values: [String]) -> OpaquePointer {
        let copies = values.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<gchar>($0) }
        return pointers.withUnsafeBufferPointer { g_variant_new_strv($0.baseAddress, gssize(values.count)) }
    }

    /// Kept for the process's life: GDBus holds the pointer.
    static let vtable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = mprisMethodCall
        table.pointee.get_property = mprisGetProperty
        return table
    }()

    static let introspection = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/><method name="Quit"/>
        <property name="CanQuit" type="b" access="read"/><property name="CanRaise" type="b" access="read"/>
        <property name="Fullscreen" type="b" access="read"/><property name="CanSetFullscreen" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/><property name="Identity" type="s" access="read"/>
        <property name="DesktopEntry" type="s" access="read"/>
        <property name="SupportedUriSchemes" type="as" access="read"/><property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Next"/><method name="Previous"/><method name="Pause"/><method name="PlayPause"/>
        <method name="Stop"/><method name="Play"/>
        <signal name="Seeked"><arg name="Position" type="x"/></signal>
        <property name="PlaybackStatus" type="s" access="read"/><property name="LoopStatus" type="s" access="read"/>
        <property name="Rate" type="d" access="read"/><property name="Shuffle" type="b" access="read"/>
        <property name="Metadata" type="a{sv}" access="read"/><property name="Volume" type="d" access="read"/>
        <property name="Position" type="x" access="read"/><property name="MinimumRate" type="d" access="read"/>
        <property name="MaximumRate" type="d" access="read"/><property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/><property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/><property name="CanSeek" type="b" access="read"/>
        <property name="CanControl" type="b" access="read"/>
      </interface>
    </node>
    """
}

// GDBus callbacks: on the GTK main loop, so on the main thread.

/// The pointers a GDBus callback receives, carried into `MainActor.assumeIsolated` (same thread).
private struct MainThreadCall: @unchecked Sendable {
    let data: UnsafeMutableRawPointer
    var connection: OpaquePointer?
    var service: MprisService { Unmanaged<MprisService>.fromOpaque(data).takeUnretainedValue() }
}

private let mprisBusAcquired: GBusAcquiredCallback = { connection, _, data in
    guard let connection, let data else { return }
    let call = MainThreadCall(data: data, connection: connection)
    MainActor.assumeIsolated { if let connection = call.connection { call.service.busAcquired(connection) } }
}

private let mprisNameLost: GBusNameLostCallback = { _, _, data in
    guard let data else { return }
    let call = MainThreadCall(data: data)
    MainActor.assumeIsolated { call.service.nameLost() }
}

private let mprisMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, interface, method, _, invocation, data in
    guard let data, let method else { return }
    let interfaceName = interface.map { String(cString: $0) } ?? ""
    let methodName = String(cString: method)
    let call = MainThreadCall(data: data)
    MainActor.assumeIsolated { call.service.call(interface: interfaceName, method: methodName) }
    g_dbus_method_invocation_return_value(invocation, nil)
}

private let mprisGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, property, _, data in
    guard let data, let property else { return nil }
    let name = String(cString: property)
    let call = MainThreadCall(data: data)
    return MainActor.assumeIsolated { VariantBox(pointer: call.service.property(name)) }.pointer
}

/// A new GVariant handed from the main actor back to GDBus on the same (main) thread.
private struct VariantBox: @unchecked Sendable {
    let pointer: OpaquePointer?
}
