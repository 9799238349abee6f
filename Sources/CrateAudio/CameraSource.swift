import CCratePlugins
import CrateCore
import Foundation

/// Why the camera preview cannot show.
public enum CameraError: Error, Equatable, Sendable {
    /// No video device (no webcam connected, or no permission to see one).
    case noCamera
    /// GStreamer (libCrateGStreamer.so) cannot be loaded.
    case engineMissing(String)
    /// The camera would not start, or stopped with an error, in GStreamer's words.
    case failed(String)

    public var message: String {
        switch self {
        case .noCamera:
            return L10n.tr("No camera was found. Connect a webcam (or check that you may use it) and open the camera again.")
        case .engineMissing(let why):
            return L10n.tr("The camera needs GStreamer: %@", why)
        case .failed(let why):
            return L10n.tr("The camera could not be used: %@", String(why.prefix(300)))
        }
    }
}

extension CameraError: LocalizedError {
    public var errorDescription: String? { message }
}

/// One frame, RGB, `stride` bytes a row.
public struct CameraFrame: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: Data
}

/// A live camera: a GStreamer pipeline from `CRATE_CAMERA_SOURCE` (tests use `videotestsrc` or a
/// looping photo) or the first V4L2 device, into an appsink that keeps only the newest frame.
/// `stop()` sets it to NULL and drops it, which closes the device: nothing holds the camera after
/// the preview is gone. Use from one thread (the window's).
public final class CameraSource {
    private static let sinkName = "cratecamera"
    private let gst: GStreamerCalls
    private var pipeline: UnsafeMutableRawPointer?
    private var bus: UnsafeMutableRawPointer?

    /// What to read from: the environment's description, else the first /dev/video* device.
    public static func sourceDescription(environment: [String: String] = ProcessInfo.processInfo.environment,
                                         devices: String = "/dev") throws(CameraError) -> String {
        if let source = environment["CRATE_CAMERA_SOURCE"]?.trimmingCharacters(in: .whitespaces), !source.isEmpty { return source }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? []).filter { $0.hasPrefix("video") }
        guard let first = names.sorted(by: { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }).first else { throw .noCamera }
        return "v4l2src device=\(devices)/\(first)"
    }

    /// Starts the preview from `source` (a gst-launch source description).
    public init(source: String) throws(CameraError) {
        do throws(PluginError) {
            gst = try GStreamerRuntime.calls()
        } catch {
            throw .engineMissing(error.message)
        }
        let description = "\(source) ! videoconvert ! video/x-raw,format=RGB ! appsink name=\(Self.sinkName) max-buffers=1 drop=true sync=false"
        var errorText: UnsafeMutablePointer<CChar>?
        guard let pipeline = gst.table.pipeline_from_description(description, &errorText) else {
            let why = errorText.map { String(cString: $0) } ?? description
            gst.table.free_string(errorText)
            throw .failed(why)
        }
        self.pipeline = pipeline
        bus = gst.table.element_get_bus(pipeline)
        if gst.table.element_set_state(pipeline, Int32(CRATE_GST_STATE_PLAYING)) == 0 {  // GST_STATE_CHANGE_FAILURE
            let why = error() ?? source
            stop()
            throw .failed(why)
        }
    }

    deinit { stop() }

    /// The newest frame, waiting at most `timeout` seconds; nil when none came.
    public func frame(timeout: TimeInterval = 0) -> CameraFrame? {
        guard let pipeline else { return nil }
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        guard let pixels = gst.table.appsink_pull_rgb(pipeline, Self.sinkName, UInt64(max(0, timeout) * 1e9), &width, &height, &stride) else { return nil }
        defer { gst.table.free_string(UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: CChar.self)) }
        let data = Data(bytes: pixels, count: Int(stride) * Int(height))
        return CameraFrame(width: Int(width), height: Int(height), stride: Int(stride), pixels: data)
    }

    /// The first error the pipeline posted since the last call (a device that went away, a
    /// format the camera cannot give), or nil.
    public func error() -> String? {
        guard let bus else { return nil }
        while let message = gst.table.bus_timed_pop(bus, 0) {
            defer { gst.table.message_unref(message) }
            guard Int(gst.table.message_type(message)) == CRATE_GST_MESSAGE_ERROR else { continue }
            var domain: UnsafePointer<CChar>?
            var text: UnsafeMutablePointer<CChar>?
            _ = gst.table.parse_error(message, &domain, &text)
            defer { gst.table.free_string(text) }
            return text.map { String(cString: $0) } ?? "unknown error"
        }
        return nil
    }

    /// Stops the camera and lets go of the device.
    public func stop() {
        guard let pipeline else { return }
        _ = gst.table.element_set_state(pipeline, Int32(CRATE_GST_STATE_NULL))
        if let bus { gst.table.object_unref(bus) }
        gst.table.object_unref(pipeline)
        self.pipeline = nil
        bus = nil
    }
}
