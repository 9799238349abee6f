import Foundation

/// Appends playback log lines to a file (by default `$XDG_STATE_HOME/crate/playback.log`).
///
/// The log is the record of what "played", but it is not worth a crash: if the file cannot be
/// written, the failure is logged once, remembered in `writeError`, and playback carries on.
@MainActor
public final class PlaybackLog {
    /// Where lines go; nil keeps them in memory only (and in `onLine`).
    public let fileURL: URL?
    /// Called with every line as it is appended (the CLI prints them).
    public var onLine: ((String) -> Void)?
    /// Called with every line as it is appended, before it is encoded (the player process sends
    /// them to the window).
    public var onAppend: ((PlaybackLogLine) -> Void)?
    /// Every line appended by this instance, oldest first.
    public private(set) var lines: [String] = []
    /// Why the file could not be written, once that happened.
    public private(set) var writeError: String?
    private var handle: FileHandle?

    public init(fileURL: URL?) {
        self.fileURL = fileURL
    }

    /// `playback.log` in the state directory.
    public nonisolated static func defaultURL(paths: CratePaths) -> URL {
        paths.stateDirectory.appendingPathComponent("playback.log")
    }

    public func append(_ line: PlaybackLogLine) {
        onAppend?(line)
        let text = line.encoded()
        lines.append(text)
        onLine?(text)
        write(text)
    }

    private func write(_ text: String) {
        guard let fileURL, writeError == nil else { return }
        do {
            let handle = try openHandle(fileURL)
            try handle.write(contentsOf: Data((text + "\n").utf8))
        } catch {
            writeError = "Crate could not write the playback log at \(fileURL.path): \(UserMessage.text(for: error))"
            Log.error(writeError ?? "")
            handle?.closeFile()
            handle = nil
        }
    }

    private func openHandle(_ url: URL) throws -> FileHandle {
        if let handle { return handle }
        let fm = FileManager.default
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !fm.fileExists(atPath: url.path) {
            guard fm.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let opened = try FileHandle(forWritingTo: url)
        try opened.seekToEnd()
        handle = opened
        return opened
    }
}
