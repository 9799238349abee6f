import CCratePlugins
import CrateCore
import Foundation

/// The plugin's function table (`crate_gstreamer_table`), copied once it is loaded.
struct GStreamerCalls: @unchecked Sendable {
    let table: crate_gstreamer_table

    func objectUnref(_ object: UnsafeMutableRawPointer?) { table.object_unref(object) }
}

/// libCrateGStreamer.so, opened on first use, and `gst_init` once per process.
public enum GStreamerRuntime {
    private static let loaded: Result<GStreamerCalls, PluginError> = {
        do throws(PluginError) {
            let table = try PluginLoader.table(.gstreamer).assumingMemoryBound(to: crate_gstreamer_table.self).pointee
            table.initialize()
            return .success(GStreamerCalls(table: table))
        } catch {
            return .failure(error)
        }
    }()

    static func calls() throws(PluginError) -> GStreamerCalls { try loaded.get() }

    /// Opens the plugin and initialises GStreamer; throws when the plugin is missing.
    public static func initialize() throws(PluginError) { _ = try calls() }

    /// Nil when the playback engine can be used; otherwise why not.
    public static var unavailable: PluginError? {
        do throws(PluginError) { try initialize() } catch { return error }
        return nil
    }

    /// Whether an element factory (a plugin feature) is installed; false without the playback engine.
    public static func hasElement(_ name: String) -> Bool {
        guard let gst = try? calls() else { return false }
        return gst.table.has_element(name) != 0
    }

    /// Connects a C handler to a GObject signal (benchmarks watch the sink's `handoff`).
    public static func connect(_ instance: UnsafeMutableRawPointer, signal: String, handler: @convention(c) () -> Void,
                               data: UnsafeMutableRawPointer?) throws(PluginError) {
        _ = try calls().table.signal_connect(instance, signal, handler, data)
    }

    /// A GstBuffer's presentation time and duration (ns).
    public static func bufferTimes(_ buffer: UnsafeMutableRawPointer) -> (pts: UInt64, duration: UInt64) {
        guard let gst = try? calls() else { return (0, 0) }
        return (gst.table.buffer_pts(buffer), gst.table.buffer_duration(buffer))
    }

    /// GstDiscoverer for the tag-reading benchmark: the "album" tag of each URI.
    public final class Discoverer {
        private let gst: GStreamerCalls
        private let discoverer: UnsafeMutableRawPointer

        public init(timeoutNs: UInt64) throws {
            gst = try GStreamerRuntime.calls()
            guard let made = gst.table.discoverer_new(timeoutNs) else { throw AudioPlaybackError.playerUnavailable }
            discoverer = made
        }

        deinit { gst.objectUnref(discoverer) }

        public func album(ofURI uri: String) -> String? {
            guard let text = gst.table.discover_album(discoverer, uri) else { return nil }
            defer { gst.table.free_string(text) }
            return String(cString: text)
        }
    }
}
