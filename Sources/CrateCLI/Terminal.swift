import CrateCore
import Foundation

/// Everything the CLI prints for people goes through here, because much of it comes from outside:
/// MusicBrainz titles, model answers, server error text, file names. Printed raw, an `ESC ] 0 ;`
/// retitles the terminal and an `ESC [ 2 J` clears it; so every character a terminal would act on
/// is spelled out instead (`\x1B`). JSON output does not come here: its encoder escapes already.
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

    /// `text` with C0 controls, DEL, C1 controls and bidirectional overrides spelled out, and bytes
    /// of a file name that are not UTF-8 shown as `\xFF`. Line feeds and tabs stay when
    /// `keepingLayout`; a carriage return never does (it would let text overwrite its own line).
    static func safe(_ text: String, keepingLayout: Bool) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if keepingLayout, value == 0x0A || value == 0x09 {
                result.append(scalar)
            } else if let byte = PathBytes.rawByte(scalar) {
                result.append(contentsOf: hex(byte).unicodeScalars)
            } else if value < 0x20 || (0x7F...0x9F).contains(value) {
                result.append(contentsOf: hex(UInt8(value)).unicodeScalars)
            } else if bidiControls.contains(value) {
                result.append(contentsOf: "\\u{\(String(value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Marks that reorder the text around them (and can make a line read other than it is).
    private static let bidiControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "\\x" + (digits.count == 1 ? "0" + digits : digits)
    }
}
