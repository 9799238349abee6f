import CCratePlugins
import CrateCore
import Foundation

/// What the streaming threads, the bus and the player share: the queue's files, which entry
/// plays, which ones `about-to-finish` queued next, and a generation that makes messages posted
/// before a manual move (next, previous, load, stop, seek) stale. Every field is behind `lock`,
/// and no GStreamer call is ever made with it held (it is a leaf lock: the streaming threads and
/// the posting threads take it while GStreamer holds its own locks).
///
/// Bus messages are stamped and interpreted **when they are posted** (`BusReader` is a bus sync
/// handler), not when they are read: a message the old pipeline posted while a move was under
/// way belongs to the old generation even if it is read afterwards, and a `stream-start` is
/// matched with the queued entry in the order the pipeline posts them.
final class GStreamerSession: @unchecked Sendable {
    /// The plugin's calls, for `about-to-finish` on the streaming thread.
    let gst: GStreamerCalls
    private let lock = NSCondition()
    private var paths: [String?] = []
    private var current: Int?
    private var queued: [Int] = []
    private var skipped: [Int] = []
    private var _generation = 0
    /// True from a move until the moved-to file's own `stream-start`: that one starts `current`,
    /// it is not the switch to a queued file.
    private var ownStartPending = true
    /// False makes the player advance on end-of-stream instead (the benchmark's comparison).
    private var gapless = true
    /// `about-to-finish` fired for the file playbin is playing since it was started: playbin may
    /// hold the next file's group, and a flushing seek now makes the current group drain a
    /// second time, which deadlocks inside playbin (docs/reliability.md #23).
    private var fired = false
    /// A seek is in flight: `about-to-finish` hands playbin nothing until it is made.
    private var holding = false
    /// The flushing seek call is under way (`seekStarting` … `seekEnded`).
    private var seeking = false
    /// Each entry's stored album gain, and the entry playbin was handed last (the current one
    /// after a move, the queued one after about-to-finish): the file whose stream starts next
    /// in the audio filter (`startingGainDb`).
    private var gains: [Double?] = []
    private var handed: Int?

    init(gst: GStreamerCalls) { self.gst = gst }

    /// Streaming thread, at a stream-start in the ReplayGain filter: the stored album gain of
    /// the file starting (0 dB when none is known).
    func startingGainDb() -> Double {
        lock.withLock { handed.flatMap { gains.indices.contains($0) ? gains[$0] : nil } ?? 0 }
    }

    var generation: Int { lock.withLock { _generation } }

    func reset(paths: [String?], current: Int?, gapless: Bool, gains: [Double?] = []) -> Int {
        lock.withLock {
            self.paths = paths
            self.gains = gains
            handed = current
            self.current = current
            self.gapless = gapless
            queued = []
            skipped = []
            ownStartPending = true
            fired = false
            holding = false
            _generation += 1
            return _generation
        }
    }

    /// A manual move: the entry is `index` and will start from its own `stream-start`, nothing
    /// is queued, older bus messages are stale.
    func move(to index: Int?) -> Int {
        lock.withLock {
            current = index
            handed = index
            queued = []
            skipped = []
            ownStartPending = true
            fired = false
            holding = false
            _generation += 1
            return _generation
        }
    }

    /// How a seek is made.
    enum Seek: Equatable {
        /// A flushing seek in the playing file: `about-to-finish` has not fired, and will queue
        /// nothing until `seekDone`. The file keeps playing: no `stream-start` of its own comes.
        case flush(generation: Int)
        /// `about-to-finish` already fired (playbin may hold the next file): the file is started
        /// again (NULL, its URI, pre-roll) and the seek made once it has pre-rolled. Its own
        /// `stream-start` is coming; nothing is queued until `seekDone`.
        case restart(generation: Int)
    }

    /// Main actor, before a seek: decides how it is made, under the lock, so that
    /// `about-to-finish` cannot fire between the decision and the seek. Older messages are stale.
    func beginSeek(current index: Int?) -> Seek {
        lock.withLock {
            current = index
            handed = index
            queued = []
            skipped = []
            holding = true
            _generation += 1
            if fired {
                fired = false
                ownStartPending = true
                return .restart(generation: _generation)
            }
            return .flush(generation: _generation)
        }
    }

    /// Main actor, once the seek is made (its `async-done`): `about-to-finish` queues again.
    func seekDone() {
        lock.withLock { holding = false }
    }

    /// Main actor, just before the flushing seek call.
    func seekStarting() {
        lock.withLock { seeking = true }
    }

    /// Main actor, when the flushing seek call has returned. Once made, the flush is through:
    /// every `about-to-finish` from now on is the seeked file's own, so queueing starts again
    /// here, not at `async-done` — the rest of a short file can be read before the main actor
    /// gets the `async-done`, and an `about-to-finish` refused then loses gapless (EOS, a gap).
    func seekEnded(made: Bool) {
        lock.withLock {
            seeking = false
            if made { holding = false }
            lock.broadcast()
        }
    }

    /// Streaming thread (`about-to-finish`): the URI to play next without a gap, skipping files
    /// that vanished from disk; nil at the end of the queue.
    func queueNext() -> String? {
        lock.withLock {
            fired = true
            // During the seek call, `about-to-finish` is either the seeked file's (after the
            // flush, the call about to return) or one from before the flush (the flush waits for
            // this thread). Waiting for the call, bounded, tells them apart without a deadlock.
            let deadline = Date(timeIntervalSinceNow: 1)
            while holding, seeking, lock.wait(until: deadline) {}
            // While a seek is in flight, playbin gets no next file: the file ends with EOS and
            // the player moves on from there (once, with the gap gapless would have saved).
            guard gapless, !holding, let from = queued.last ?? current else { return nil }
            var index = from + 1
            while index < paths.count {
                if let path = paths[index], Self.exists(path) {
                    queued.append(index)
                    handed = index
                    return MusicFile.uri(forPath: path)
                }
                skipped.append(index)
                index += 1
            }
            return nil
        }
    }

    /// Posting thread: what a bus message means for the queue, stamped with the generation it
    /// was posted in; nothing for messages the player does not follow. `deliver` runs under the
    /// lock (it must only enqueue), so events reach the main queue in the order their meaning
    /// was decided.
    func interpret(_ message: BusMessage, deliver: (BusEvent, Int) -> Void) {
        lock.withLock {
            let event: BusEvent?
            switch message {
            case .streamStart:
                if ownStartPending {
                    // The file a move (or load) started: already current.
                    ownStartPending = false
                    event = nil
                } else if !queued.isEmpty {
                    let index = queued.removeFirst()
                    let gone = skipped.filter { $0 < index }
                    skipped.removeAll { $0 < index }
                    current = index
                    event = .started(index: index, skipped: gone)
                } else {
                    event = nil
                }
            case .endOfStream: event = .endOfStream
            case .asyncDone: event = .asyncDone
            case .durationChanged: event = .durationChanged
            case .missingPlugin(let caps): event = .missingPlugin(caps: caps)
            case .error(let domain, let code, let text, let fromSink, let uri):
                event = .error(domain: domain, code: code, text: text, fromSink: fromSink, index: failingIndex(uri: uri))
            }
            if let event { deliver(event, _generation) }
        }
    }

    /// The entry an error belongs to: the one whose file the failing element was reading; without
    /// that, the one queued next if the playbin had moved on to it, else the current one.
    private func failingIndex(uri: String?) -> Int? {
        if let uri {
            let candidates = (current.map { [$0] } ?? []) + queued
            if let match = candidates.first(where: { paths.indices.contains($0) && paths[$0].map(MusicFile.uri(forPath:)) == uri }) {
                return match
            }
        }
        return queued.first ?? current
    }

    static func exists(_ path: String) -> Bool {
        let bytes = PathBytes.bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return access(bytes, F_OK) == 0
    }
}

/// One bus message, copied out of GStreamer on the posting thread.
enum BusMessage: Sendable {
    case streamStart
    case endOfStream
    /// `uri`: the file the failing element was reading, when it was reading one.
    case error(domain: String, code: Int, text: String, fromSink: Bool, uri: String?)
    case missingPlugin(caps: String)
    case asyncDone
    case durationChanged
}

/// What a bus message means for the player, decided on the posting thread.
enum BusEvent: Sendable, Equatable {
    /// The playbin moved on by itself (gapless) to the queued entry `index`; `skipped` are
    /// entries passed over on the way because their files are gone.
    case started(index: Int, skipped: [Int])
    case endOfStream
    /// `index`: the queue entry whose file failed, if any.
    case error(domain: String, code: Int, text: String, fromSink: Bool, index: Int?)
    case missingPlugin(caps: String)
    case asyncDone
    case durationChanged
}

/// Takes the bus's messages as they are posted (a sync handler, on the posting thread), so the
/// player works with no GLib main loop running (the CLI) as well as inside GTK's. Events go to
/// the main queue in order, stamped with the generation current when they were posted. The
/// handler only copies, interprets under the session's leaf lock and enqueues: it never changes
/// a state nor waits for another thread (it runs inside GStreamer's streaming threads and inside
/// `gst_element_set_state` calls).
final class BusReader: @unchecked Sendable {
    private let gst: GStreamerCalls
    private let bus: UnsafeMutableRawPointer
    private let session: GStreamerSession
    private let deliver: @Sendable (BusEvent, Int) -> Void
    private var retained: Unmanaged<BusReader>?

    init(gst: GStreamerCalls, bus: UnsafeMutableRawPointer, session: GStreamerSession, deliver: @escaping @Sendable (BusEvent, Int) -> Void) {
        self.gst = gst
        self.bus = bus
        self.session = session
        self.deliver = deliver
        let unmanaged = Unmanaged.passRetained(self)
        retained = unmanaged
        gst.table.bus_set_message_handler(bus, busMessageHandler, unmanaged.toOpaque())
    }

    /// Stops taking messages (the pipeline must be in NULL: nothing posts any more).
    func stop() {
        gst.table.bus_set_message_handler(bus, nil, nil)
        gst.objectUnref(bus)
        retained?.release()
        retained = nil
    }

    fileprivate func take(_ message: UnsafeMutableRawPointer) {
        guard let copied = copy(message) else { return }
        session.interpret(copied, deliver: deliver)
    }

    private func copy(_ message: UnsafeMutableRawPointer) -> BusMessage? {
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
            let uri = gst.table.message_source_uri(message)
            defer { gst.table.free_string(uri) }
            return .error(domain: domain.map { String(cString: $0) } ?? "", code: Int(code), text: text.map { String(cString: $0) } ?? "",
                          fromSink: gst.table.message_from_sink(message) != 0, uri: uri.map { String(cString: $0) })
        case CRATE_GST_MESSAGE_ELEMENT:
            guard let detail = gst.table.missing_plugin_detail(message) else { return nil }
            defer { gst.table.free_string(detail) }
            return .missingPlugin(caps: String(cString: detail))
        default:
            return nil
        }
    }
}

/// The bus handler: interprets the message on the thread that posts it (the plugin then drops
/// it: nothing pops the bus).
private let busMessageHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { message, data in
    guard let message, let data else { return }
    Unmanaged<BusReader>.fromOpaque(data).takeUnretainedValue().take(message)
}
