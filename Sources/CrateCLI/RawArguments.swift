import CrateCore
import Foundation

/// The exact bytes of path arguments. `CommandLine.arguments` (and so ArgumentParser) decodes
/// argv as UTF-8 and replaces any other byte with U+FFFD, so `crate scan caf\xFF.jpg` would look
/// for a file that does not exist — while `crate batch add` happily queued it. Every command that
/// takes file names recovers them here, from argv itself, as `PathBytes` strings.
enum RawArguments {
    /// `parsed` (as ArgumentParser gave them, in order), each replaced by the argv entry it was
    /// decoded from. Entries are matched in order, so two names that decode alike keep their own bytes.
    static func paths(_ parsed: [String]) -> [String] {
        let argv = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        }
        return paths(parsed, argv: argv)
    }

    static func paths(_ parsed: [String], argv: [[UInt8]]) -> [String] {
        var next = 0
        return parsed.map { value in
            guard let index = argv[next...].firstIndex(where: { String(decoding: $0, as: UTF8.self) == value }) else { return value }
            next = index + 1
            return PathBytes.string(from: argv[index])
        }
    }
}
