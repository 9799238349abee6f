import Foundation
import Synchronization
import Testing
@testable import CrateAudio
@testable import CrateCore

/// The queue bookkeeping the streaming threads and the bus share, driven message by message in
/// the orders a loaded machine produces (seen with a truncated file between a damaged one and the
/// next album): deterministic, no pipeline.
@Suite("GStreamer session", .tags(.gstreamer))
struct GStreamerSessionTests {
    /// Five files that exist (the session skips files gone from disk).
    func files(_ temp: TemporaryDirectory) throws -> [String] {
        try (1...5).map { n in
            let path = temp.url.appendingPathComponent("\(n).flac").path
            try Data([UInt8(n)]).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// What the session makes of one message, with the generation it was stamped with.
    func interpret(_ session: GStreamerSession, _ message: BusMessage) -> (BusEvent, Int)? {
        var result: (BusEvent, Int)?
        session.interpret(message) { result = ($0, $1) }
        return result
    }

    func error(uri: String?) -> BusMessage {
        .error(domain: "gst-stream-error-quark", code: 1, text: "Internal data stream error.", fromSink: false, uri: uri)
    }

    @Test("An error from the playing file after the next one was queued is the playing file's")
    func errorBelongsToTheFailingFile() throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        _ = session.reset(paths: paths, current: 2, gapless: true)
        #expect(interpret(session, .streamStart) == nil)
        // about-to-finish of the truncated third file queued the fourth…
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[3]))
        // …and then the third file's decoder failed: entry 2 failed, not entry 3.
        #expect(interpret(session, error(uri: MusicFile.uri(forPath: paths[2])))?.0
            == .error(domain: "gst-stream-error-quark", code: 1, text: "Internal data stream error.", fromSink: false, index: 2))
        // A queued file that fails (typefind on garbage) is that file.
        #expect(interpret(session, error(uri: MusicFile.uri(forPath: paths[3])))?.0
            == .error(domain: "gst-stream-error-quark", code: 1, text: "Internal data stream error.", fromSink: false, index: 3))
        // With no file named (a sink's error), the entry playbin is moving to.
        #expect(interpret(session, error(uri: nil))?.0
            == .error(domain: "gst-stream-error-quark", code: 1, text: "Internal data stream error.", fromSink: false, index: 3))
    }

    @Test("A message posted before a move keeps the old generation, whenever it is read")
    func messagesAreStampedWhenPosted() throws {
        let temp = try TemporaryDirectory()
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        let before = session.reset(paths: try files(temp), current: 1, gapless: true)
        // The damaged file's second error ("Internal data stream error"), posted while the
        // player was handling the first one: stale once the move is made.
        let posted = interpret(session, error(uri: nil))
        let after = session.move(to: 2)
        #expect(posted?.1 == before)
        #expect(after != before)
    }

    @Test("The moved-to file's own stream-start is not the switch to the file queued after it")
    func ownStreamStartIsNotTheQueuedOne() throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        _ = session.reset(paths: paths, current: 0, gapless: true)
        _ = session.move(to: 2)
        // A short file: about-to-finish (for the 4th, then the 5th) before its own stream-start.
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[3]))
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[4]))
        #expect(interpret(session, .streamStart) == nil)
        #expect(interpret(session, .streamStart)?.0 == .started(index: 3, skipped: []))
        #expect(interpret(session, .streamStart)?.0 == .started(index: 4, skipped: []))
        #expect(interpret(session, .streamStart) == nil)
    }

    @Test("A seek before about-to-finish is a flushing seek; nothing is queued until it is done")
    func seekBeforeAboutToFinish() throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        let before = session.reset(paths: paths, current: 0, gapless: true)
        #expect(interpret(session, .streamStart) == nil)
        guard case .flush(let generation) = session.beginSeek(current: 0) else {
            Issue.record("expected a flushing seek")
            return
        }
        #expect(generation != before)
        // about-to-finish while the seek is in flight: playbin gets no next file.
        #expect(session.queueNext() == nil)
        session.seekDone()
        // about-to-finish fired (even though it queued nothing): the next seek restarts the file.
        guard case .restart = session.beginSeek(current: 0) else {
            Issue.record("expected a restart after about-to-finish")
            return
        }
        session.seekDone()
        // Once the seek is done, the next file is queued again.
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[1]))
    }

    @Test("Once the flushing seek call returns, about-to-finish queues again (not only at async-done)")
    func seekCallReturnedQueues() async throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        _ = session.reset(paths: paths, current: 0, gapless: true)
        _ = session.beginSeek(current: 0)
        // A call that failed keeps the hold: the seek is asked again at async-done.
        session.seekStarting()
        session.seekEnded(made: false)
        #expect(session.queueNext() == nil)
        // about-to-finish during the call waits for it: the seeked file's gets the next file.
        _ = session.beginSeek(current: 0)
        session.seekStarting()
        // (Threads, not tasks: a task's sleep on a loaded machine can outlast the 1 s the wait allows.)
        let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let asked = Mutex<String?>(nil)
        Thread {
            started.signal()
            asked.withLock { $0 = session.queueNext() }
            done.signal()
        }.start()
        started.wait()
        session.seekEnded(made: true)
        done.wait()
        #expect(asked.withLock { $0 } == MusicFile.uri(forPath: paths[1]))
    }

    @Test("A seek after about-to-finish restarts the file: its own stream-start, then the queued one")
    func seekAfterAboutToFinishRestarts() throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        _ = session.reset(paths: paths, current: 0, gapless: true)
        #expect(interpret(session, .streamStart) == nil)
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[1]))
        guard case .restart = session.beginSeek(current: 0) else {
            Issue.record("expected a restart: playbin may hold the next file")
            return
        }
        // The restarted file's own stream-start starts nothing new.
        #expect(interpret(session, .streamStart) == nil)
        #expect(session.queueNext() == nil)
        session.seekDone()
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[1]))
        #expect(interpret(session, .streamStart)?.0 == .started(index: 1, skipped: []))
    }

    @Test("A seek right after a move keeps waiting for the moved-to file's own stream-start")
    func seekRightAfterAMove() throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        _ = session.reset(paths: paths, current: 0, gapless: true)
        _ = session.move(to: 2)
        #expect(session.beginSeek(current: 2) != .restart(generation: session.generation))
        session.seekDone()
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[3]))
        #expect(interpret(session, .streamStart) == nil)
        #expect(interpret(session, .streamStart)?.0 == .started(index: 3, skipped: []))
    }

    @Test("Files gone from disk are skipped when queued and reported with the switch")
    func vanishedFilesAreReported() throws {
        let temp = try TemporaryDirectory()
        let paths = try files(temp)
        try FileManager.default.removeItem(atPath: paths[1])
        let session = try GStreamerSession(gst: GStreamerRuntime.calls())
        _ = session.reset(paths: paths, current: 0, gapless: true)
        #expect(interpret(session, .streamStart) == nil)
        #expect(session.queueNext() == MusicFile.uri(forPath: paths[2]))
        #expect(interpret(session, .streamStart)?.0 == .started(index: 2, skipped: [1]))
    }
}
