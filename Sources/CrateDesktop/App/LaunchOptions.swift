/// Options Crate handles itself before GTK sees the command line.
struct LaunchOptions {
    /// Start, prove the GLib ↔ Swift-concurrency bridge works, and exit 0 (or 1).
    var selfTest = false
    /// Render the window to this PNG once it has settled, then quit.
    var screenshotPath: String?
    /// Seconds to wait before the screenshot.
    var screenshotDelay: Double = 1.5
    /// Open on this page ("crate" or "history") — for screenshots and scripts.
    var page: String?
    /// Select this album id at start — for screenshots and scripts.
    var albumID: Int64?
    /// Detail tab to show ("tracks" or "review") — for screenshots.
    var tab: String?
    /// Start playing this album — for screenshots and scripts.
    var playAlbumID: Int64?
    /// Open Preferences at start (and screenshot it) — for screenshots.
    var showPreferences = false
    /// Show the first-run welcome even when not a first run — for screenshots.
    var showWelcome = false
    /// Show the drop overlay as if a file were dragged over the window — for screenshots.
    var showDropOverlay = false
    /// Open and close a second window this many times, then exit 1 if live objects grew.
    var windowCycles: Int?
    /// Arguments left for `g_application_run` (program name, files to open).
    var remaining: [String] = []

    static func parse(_ arguments: [String]) -> LaunchOptions {
        var options = LaunchOptions()
        var iterator = arguments.makeIterator()
        if let program = iterator.next() { options.remaining.append(program) }
        while let argument = iterator.next() {
            switch argument {
            case "--self-test": options.selfTest = true
            case "--screenshot": options.screenshotPath = iterator.next()
            case "--screenshot-delay": options.screenshotDelay = iterator.next().flatMap { Double($0) } ?? 1.5
            case "--page": options.page = iterator.next()
            case "--tab": options.tab = iterator.next()
            case "--preferences": options.showPreferences = true
            case "--drop-overlay": options.showDropOverlay = true
            case "--welcome": options.showWelcome = true
            case "--play": options.playAlbumID = iterator.next().flatMap { Int64($0) }
            case "--window-cycle-test": options.windowCycles = iterator.next().flatMap { Int($0) } ?? 100
            case "--album": options.albumID = iterator.next().flatMap { Int64($0) }
            default: options.remaining.append(argument)
            }
        }
        return options
    }

    /// Test and screenshot runs must not hand their work to an already running Crate.
    var isDiagnosticRun: Bool { selfTest || screenshotPath != nil || windowCycles != nil }
}
