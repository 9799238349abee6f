import Foundation
import Logging

/// The one logger. Everything Crate logs goes through here with a `[crate]` prefix; never secrets.
public enum Log {
    public static let shared: Logger = {
        var logger = Logger(label: "crate")
        logger.logLevel = ProcessInfo.processInfo.environment["CRATE_DEBUG"] == nil ? .notice : .debug
        return logger
    }()

    /// The line as logged: prefixed, and on one line with every control and bidirectional
    /// character spelled out, since log lines carry network and player text to stderr.
    public static func line(_ message: String) -> String {
        "[crate] " + TerminalText.escaped(message, keepingLayout: false)
    }

    public static func notice(_ message: @autoclosure () -> String) {
        shared.notice("\(line(message()))")
    }

    public static func error(_ message: @autoclosure () -> String) {
        shared.error("\(line(message()))")
    }

    public static func debug(_ message: @autoclosure () -> String) {
        shared.debug("\(line(message()))")
    }
}
