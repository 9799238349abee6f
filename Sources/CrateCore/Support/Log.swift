import Foundation
import Logging

/// The one logger. Everything Crate logs goes through here with a `[crate]` prefix; never secrets.
public enum Log {
    public static let shared: Logger = {
        var logger = Logger(label: "crate")
        logger.logLevel = ProcessInfo.processInfo.environment["CRATE_DEBUG"] == nil ? .notice : .debug
        return logger
    }()

    public static func notice(_ message: @autoclosure () -> String) {
        shared.notice("[crate] \(message())")
    }

    public static func error(_ message: @autoclosure () -> String) {
        shared.error("[crate] \(message())")
    }

    public static func debug(_ message: @autoclosure () -> String) {
        shared.debug("[crate] \(message())")
    }
}
