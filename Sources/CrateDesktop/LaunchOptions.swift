/// Options Crate handles itself before GTK sees the command line.
struct LaunchOptions {
    /// Start, prove the GLib ↔ Swift-concurrency bridge works, and exit 0 (or 1).
    var selfTest = false
    /// Render the window to this PNG once it has settled, then quit.
    var screenshotPath: String?
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
            default: options.remaining.append(argument)
            }
        }
        return options
    }

    /// Test and screenshot runs must not hand their work to an already running Crate.
    var isDiagnosticRun: Bool { selfTest || screenshotPath != nil }
}
