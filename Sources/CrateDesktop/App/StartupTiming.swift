import Foundation
import Synchronization

/// `CRATE_TIMING=1`: prints how long after process start the window mapped and the crate showed,
/// with the resident memory, once each (for the performance targets in docs/performance.md).
@MainActor
enum StartupTiming {
    private static var seen: Set<String> = []
    private static let enabled = ProcessInfo.processInfo.environment["CRATE_TIMING"] != nil
    static var isEnabled: Bool { enabled }

    /// A `timing:` line as it is, every time (how long a page took to apply a late answer).
    static func print(_ event: String) {
        guard enabled else { return }
        FileHandle.standardOutput.write(Data("timing: \(event)\n".utf8))
    }

    private nonisolated static let offMainMarked = Mutex<Set<String>>([])

    /// A mark from another thread (once per event), e.g. when the first texture was decoded:
    /// the time from there to "first covers visible" is the main loop's, not the decoder's.
    nonisolated static func markOffMain(_ event: String) {
        guard ProcessInfo.processInfo.environment["CRATE_TIMING"] != nil,
              offMainMarked.withLock({ $0.insert(event).inserted }) else { return }
        let line = String(format: "timing: %@ after %.0f ms (off main)\n", event, (ProcessInfo.processInfo.systemUptime - processStartUptime()) * 1000)
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    static func mark(_ event: String) {
        guard enabled, !seen.contains(event) else { return }
        seen.insert(event)
        let started = processStartUptime()
        let elapsed = ProcessInfo.processInfo.systemUptime - started
        // Written straight away (not buffered): a benchmark stops the process once it has the line.
        let line = String(format: "timing: %@ after %.0f ms, resident %@\n", event, elapsed * 1000, residentMemory())
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Events printed when the next frame has been painted (`framePainted()`).
    private static var atNextFrame: [String] = []
    /// Frames the window has painted so far (a window at rest paints none).
    private(set) static var framesPainted = 0

    /// Marks `event` once the next frame is painted: what was put in the widgets is on screen.
    static func markAtNextFrame(_ event: String) {
        guard enabled, !seen.contains(event), !atNextFrame.contains(event) else { return }
        atNextFrame.append(event)
    }

    /// The window painted a frame (its frame clock's `after-paint`, see `StartupQueue`).
    static func framePainted() {
        guard enabled else { return }
        framesPainted += 1
        mark("first frame drawn")
        let events = atNextFrame
        atNextFrame = []
        for event in events { mark(event) }
    }

    /// Process start from /proc/self/stat (field 22, in clock ticks since boot).
    nonisolated private static func processStartUptime() -> TimeInterval {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return ProcessInfo.processInfo.systemUptime }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return ProcessInfo.processInfo.systemUptime }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func residentMemory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return "?" }
        return line.dropFirst("VmRSS:".count).trimmingCharacters(in: .whitespaces)
    }
}
