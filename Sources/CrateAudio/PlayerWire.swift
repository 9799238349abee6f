import CrateCore
import Foundation

/// What the window (or the CLI) and its player process say to each other: one JSON object per
/// line, requests on the player's standard input, reports on its standard output.
///
/// Every request is answered by a `reply` with the same id, after the state and log lines the
/// command caused: when the asking side sees the reply, it has seen everything the command did.
enum PlayerWire {
    /// One queue entry as it crosses the pipe: what the player needs to play it and to log it.
    struct Entry: Codable, Equatable, Sendable {
        var gridIndex: Int
        var albumID: Int64
        var disc: Int
        var position: Int
        var number: String?
        var title: String
        var durationMs: Int?
        var filePath: String?
        var albumGainDb: Double?

        init(_ entry: QueueEntry) {
            gridIndex = entry.id.gridIndex
            albumID = entry.albumID
            disc = entry.track.disc
            position = entry.track.position
            number = entry.track.number
            title = entry.track.title
            durationMs = entry.track.durationMs
            filePath = entry.filePath
            albumGainDb = entry.albumGainDb
        }

        var queueEntry: QueueEntry {
            QueueEntry(gridIndex: gridIndex, albumID: albumID,
                       track: Track(albumID: albumID, disc: disc, position: position, number: number, title: title, durationMs: durationMs),
                       filePath: filePath, albumGainDb: albumGainDb)
        }
    }

    enum Command: Codable, Equatable, Sendable {
        case load(entries: [Entry], index: Int)
        case play
        case pause
        case stop
        case seek(positionMs: Int)
        case next
        case previous
        case volume(Double)
        case replayGain(ReplayGainMode)
    }

    struct Request: Codable, Equatable, Sendable {
        var id: Int
        var command: Command
    }

    /// Only a request's id: enough to answer one whose command cannot be read.
    struct RequestID: Decodable {
        var id: Int
    }

    /// The player's state without the entry itself (the asking side has the queue).
    struct State: Codable, Equatable, Sendable {
        var status: PlayerState.Status
        var currentIndex: Int?
        var positionMs: Int
        var durationMs: Int
        var queueCount: Int
        var finishedQueue: Bool
        var problem: String?

        init(_ state: PlayerState) {
            status = state.status
            currentIndex = state.currentIndex
            positionMs = state.positionMs
            durationMs = state.durationMs
            queueCount = state.queueCount
            finishedQueue = state.finishedQueue
            problem = state.problem
        }

        func playerState(queue: [QueueEntry]) -> PlayerState {
            var state = PlayerState()
            state.status = status
            state.currentIndex = currentIndex
            state.currentEntry = currentIndex.flatMap { queue.indices.contains($0) ? queue[$0] : nil }
            state.positionMs = positionMs
            state.durationMs = durationMs
            state.queueCount = queueCount
            state.finishedQueue = finishedQueue
            state.problem = problem
            return state
        }
    }

    /// Why a command failed, typed where the asking side knows the error.
    enum Failure: Codable, Equatable, Sendable {
        case playback(PlaybackError)
        case audio(AudioPlaybackError)
        case plugin(PluginError)
        case other(message: String)

        init(_ error: any Error) {
            switch error {
            case let error as PlaybackError: self = .playback(error)
            case let error as AudioPlaybackError: self = .audio(error)
            case let error as PluginError: self = .plugin(error)
            default: self = .other(message: UserMessage.text(for: error))
            }
        }

        var error: any Error {
            switch self {
            case .playback(let error): error
            case .audio(let error): error
            case .plugin(let error): error
            case .other(let message): PlayerProcessError.failed(message)
            }
        }
    }

    enum Report: Codable, Equatable, Sendable {
        case state(State)
        case log(PlaybackLogLine)
        case reply(id: Int, failure: Failure?)
    }

    static func encode<T: Encodable>(_ value: T) -> Data {
        // Encoding these plain types cannot fail; a line is never split (JSON escapes newlines).
        var data = (try? JSONEncoder().encode(value)) ?? Data()
        data.append(0x0A)
        return data
    }

    static func decode<T: Decodable>(_ type: T.Type, from line: Data) throws -> T {
        try JSONDecoder().decode(type, from: line)
    }
}

/// Reads newline-separated lines from a file descriptor on a thread of its own, until the end of
/// the file (the other side closed it or died). Handlers run on that thread.
final class LineReader: @unchecked Sendable {
    private let fd: Int32
    private let onLine: @Sendable (Data) -> Void
    private let onEnd: @Sendable () -> Void

    init(fd: Int32, name: String, onLine: @escaping @Sendable (Data) -> Void, onEnd: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.onLine = onLine
        self.onEnd = onEnd
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    private func run() {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                if !line.isEmpty { onLine(Data(line)) }
            }
        }
        close(fd)
        onEnd()
    }
}

/// Writes whole lines to a file descriptor; false once the other side is gone.
enum LineWriter {
    static func write(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }
}
