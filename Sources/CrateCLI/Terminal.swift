import CrateCore
import Foundation

/// Everything the CLI prints for people goes through here, because much of it comes from outside:
/// MusicBrainz titles, model answers, server error text, file names. Printed raw, an `ESC ] 0 ;`
/// retitles the terminal and an `ESC [ 2 J` clears it; so every character a terminal would act on
/// is spelled out instead (`\x1B`). JSON output goes through `json(_:)`, which escapes what
/// its encoder leaves raw.
enum Terminal {
    /// Prints text for people on stdout; line breaks and tabs in it are kept (a review's paragraphs).
    static func say(_ text: String) {
        print(safe(text, keepingLayout: true))
    }

    /// Prints `crate: message` on stderr, as one line: a line break in text from the network
    /// cannot forge a second `crate:` line.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("crate: \(field(message))\n".utf8))
    }

    /// A value inside a one-line layout (a table cell, a file name): even a line break or a tab in
    /// it is spelled out, so it cannot forge a line or a column.
    static func field(_ text: String) -> String {
        safe(text, keepingLayout: false)
    }

    /// `text` with every character a terminal would act on spelled out (`TerminalText.escaped`).
    static func safe(_ text: String, keepingLayout: Bool) -> String {
        TerminalText.escaped(text, keepingLayout: keepingLayout)
    }

    /// Prints `value` as pretty, key-sorted JSON on stdout (`--json`), escaped as `json(_:)` does.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(json(try encoder.encode(value)))
    }

    /// Encoded JSON for stdout, with C1 and bidirectional controls escaped too (`TerminalText.json`).
    static func json(_ data: Data) -> String {
        TerminalText.json(data)
    }
}
