import Foundation

/// Text from outside (MusicBrainz titles, model answers, server error text, player output, file
/// names) made safe for a terminal and for JSON readers that print what they decode. Printed
/// raw, `ESC ] 0 ;` retitles the terminal, `ESC [ 2 J` clears it, U+009B starts a control
/// sequence on its own and U+202E turns the rest of a line around.
public enum TerminalText {
    /// `text` with C0 controls, DEL, C1 controls and bidirectional controls spelled out (`\x1B`,
    /// `\u{202E}`), and bytes of a file name that are not UTF-8 shown as `\xFF`. Line feeds and
    /// tabs stay when `keepingLayout`; a carriage return never does (it would let text overwrite
    /// its own line).
    public static func escaped(_ text: String, keepingLayout: Bool) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if keepingLayout, value == 0x0A || value == 0x09 {
                result.append(scalar)
            } else if let byte = PathBytes.rawByte(scalar) {
                result.append(contentsOf: hex(byte).unicodeScalars)
            } else if isControl(value) {
                result.append(contentsOf: hex(UInt8(value)).unicodeScalars)
            } else if bidiControls.contains(value) {
                result.append(contentsOf: "\\u{\(String(value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Encoded JSON with DEL, C1 controls and bidirectional controls written as `\uXXXX` escapes
    /// (JSON encoders leave them raw; C0 controls they escape already). Outside strings JSON is
    /// ASCII, so only string contents change, and they decode to the same text.
    public static func json(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            // C0 controls inside strings are escaped by the encoder; outside, they are layout.
            if (0x7F...0x9F).contains(value) || bidiControls.contains(value) {
                let digits = String(value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Marks that reorder the text around them (and can make a line read other than it is).
    static let bidiControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "\\x" + (digits.count == 1 ? "0" + digits : digits)
    }
}
