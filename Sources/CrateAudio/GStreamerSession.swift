import CCratePlugins
import CrateCore
import Foundation

/// What the streaming thread and the bus thread share with the player: the queue's files, which
/// entry plays, which one `about-to-finish` queued next, and a generation that makes messages
/// posted before a manual move (next, previous, load) stale. Every field is behind `lock`.
final class GStreamerSession: @unchecked Sendable {
    /// The plugin's calls, for `about-to-finish` on the streaming thread.
    let gst: GStreamerCalls
    private let lock = NSLock()
    private var paths: [String?] = []
    private var current: Int?
    private var queued: [Int] = []
    private var skipped: [Int] = []
    private var _generation = 0
    /// False makes the player advance on end-of-stream instead (the benchmark's comparison).
    private var gapless = true

    init(gst: GStreamerCalls) { self.gst = gst }

    var generation: Int { lock.withLock { _generation } }

    func reset(paths: [String?], current: Int?, gapless: Bool) -> Int {
        lock.withLock {
            self.paths = paths
            self.current = current
            self.gapless = gapless
            queued = []
            skipped = []
            _generation += 1
            return _generation
        }
    }

    /// A manual move: the entry is `index`, nothing is queued, older bus messages are stale.
    func move(to index: Int?) -> Int {
        lock.withLock {
            current = index
            queued = []
            skipped = []
            _generation += 1
            return _generation
        }
    }

    /// Streaming thread (`about-to-finish`): the URI to play next without a gap, skipping files
    /// that vanished from disk; nil at the end of the queue.
    func queueNext() -> String? {
        lock.withLock {
            guard gapless, let from = queued.last ?? current else { return nil }
            var index = from + 1
            while index < paths.count {
                if let path = paths[index], Self.exists(path) {
                    queued.append(index)
                    return MusicFile.uri(forPath: path)
                }
                skipped.append(index)
                index += 1
            }
            return nil
        }
    }

    /// Main actor, on stream-start: the entry the playbin moved to by itself, and the entries
    /// skipped on the way (files gone from disk).
    func takeQueued() -> (index: Int, skipped: [Int])? {
        lock.withLock {
            guard !queued.isEmpty else { return nil }
            let index = queued.removeFirst()
            let gone = skipped.filter { $0 < index }
            skipped.removeAll { $0 < index }
            current = index
            return (index, gone)
        }
    }

    /// The entry an error belongs to: the one queued next, if the playbin had moved on to it.
    var failingIndex: Int? { lock.withLock { queued.first ?? current } }

    static func exists(_ path: String) -> Bool {
        let bytes = PathBytes.bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return access(bytes, F_OK) == 0
    }
}

/// One bus message, copied out of GStreamer on the bus thread.
enum BusEvent: Sendable {
    case streamStart
    case endOfStream
    case error(domain: String, code: Int, text: String, fromSink: Bool)
    case missingPlugin(caps: String)
    case asyncDone
    case durationChanged
}

/// Pops the bus on its own thread, so the player works with no GLib main loop running (the
/// CLI) as well as inside GTK's. Events go to the main queue in order, tagged with the
/// generation current when they were popped.
final class BusReader: @unchecked Sendable {
    private let gst: GStreamerCalls
    private let bus: UnsafeMutableRawPointer
    private let session: GStreamerSession
    private let lock = NSLock()
    private var running = true
    private let deliver: @Sendable (BusEvent, Int) -> Void
    private let done = DispatchSemaphore(value: 0)

    init(gst: GStreamerCalls, bus: UnsafeMutableRawPointer, session: GStreamerSession, deliver: @escaping @Sendable (BusEvent, Int) -> Void) {
        self.gst = gst
        self.bus = bus
        self.session = session
        self.deliver = deliver
        let thread = Thread { [self] in self.run() }
        thread.name = "crate-gst-bus"
        thread.start()
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
        gst.objectUnref(bus)
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func run() {
        while isRunning {
            guard let message = gst.table.bus_timed_pop(bus, 50_000_000) else { continue }
            let generation = session.generation
            let event = event(message)
            gst.table.message_unref(message)
            if let event { deliver(event, generation) }
        }
        done.signal()
    }

    private func event(_ message: UnsafeMutableRawPointer) -> BusEvent? {
        switch Int(gst.table.message_type(message)) {
        case CRATE_GST_MESSAGE_STREAM_START: return .streamStart
        case CRATE_GST_MESSAGE_EOS: return .endOfStream
        case CRATE_GST_MESSAGE_ASYNC_DONE: return .asyncDone
        case CRATE_GST_MESSAGE_DURATION_CHANGED: return .durationChanged
        case CRATE_GST_MESSAGE_ERROR:
            var domain: UnsafePointer<CChar>?
            var text: UnsafeMutablePointer<CChar>?
            let code = gst.table.parse_error(message, &domain, &text)
            defer { gst.table.free_string(text) }
            return .error(domain: domain.map { String(cString: $0) } ?? "", code: Int(code), text: text.map { String(cString: $0) } ?? "",
                          fromSink: gst.table.message_from_sink(message) != 0)
        case CRATE_GST_MESSAGE_ELEMENT:
            guard let detail = gst.table.missing_plugin_detail(message) else { return nil }
            defer { gst.table.free_string(detail) }
            return .missingPlugin(caps: String(cString: detail))
        default:
            return nil
        }
    }
}
