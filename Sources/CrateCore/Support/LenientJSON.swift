import Foundation

/// Reading JSON out of model output: code fences stripped, prose around the object ignored,
/// numbers and booleans accepted as strings. Anything that cannot be repaired is an error.
public enum LenientJSON {
    public enum Failure: Error, Equatable, Sendable, LocalizedError {
        case noJSONObject

        public var errorDescription: String? {
            switch self {
            case .noJSONObject: return "The answer that came back held no JSON object."
            }
        }
    }

    /// How many opening braces `object(in:)` tries before giving up.
    static let maxCandidates = 32

    /// The outermost JSON object in `text`.
    public static func object(in text: String) throws -> [String: Any] {
        let cleaned = stripFences(text)
        let chars = Array(cleaned.unicodeScalars)
        var start = 0
        var attempts = 0
        // Try each `{` in turn: prose before the object may itself contain braces. The attempts are
        // bounded so a hostile body of a million `{` costs linear time, not quadratic.
        while attempts < maxCandidates, let open = chars[start...].firstIndex(of: "{") {
            attempts += 1
            if let close = matchingBrace(chars, from: open) {
                var scalars = String.UnicodeScalarView()
                scalars.append(contentsOf: chars[open...close])
                if let data = String(scalars).data(using: .utf8),
                   let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] {
                    return object
                }
            }
            start = open + 1
        }
        throw Failure.noJSONObject
    }

    /// Removes Markdown code fences (```json … ```), wherever they are.
    public static func stripFences(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { continue }
            lines.append(line)
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A trimmed string from a string or number; nil for null, empty, or other types.
    public static func string(_ value: Any?) -> String? {
        switch value {
        case let s as String:
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case let n as NSNumber where !isJSONBoolean(n):
            let d = n.doubleValue
            guard d.isFinite else { return nil }
            return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        default: return nil
        }
    }

    /// A number from a JSON number or a string such as "8.5", "8.5/10" or " 0.8 ".
    public static func double(_ value: Any?) -> Double? {
        guard let value, !isJSONBoolean(value) else { return nil }
        if let s = value as? String {
            let trimmed = s.trimmingCharacters(in: .whitespaces)
            var prefix = ""
            for ch in trimmed {
                if ch.isNumber || ch == "." || (ch == "-" && prefix.isEmpty) { prefix.append(ch) } else { break }
            }
            return Double(prefix).flatMap { $0.isFinite ? $0 : nil }
        }
        if let n = value as? NSNumber { return n.doubleValue.isFinite ? n.doubleValue : nil }
        return nil
    }

    /// A boolean from true/false, "true"/"yes"/"1", or 0/1.
    public static func bool(_ value: Any?) -> Bool? {
        guard let value else { return nil }
        if let s = value as? String {
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: return nil
            }
        }
        if let n = value as? NSNumber { return n.doubleValue != 0 }
        return nil
    }

    /// JSON `true`/`false` arrive as an NSNumber subclass that also casts to Int and Double;
    /// its class name is the only portable tell.
    static func isJSONBoolean(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("Boolean")
    }

    /// A list of non-empty strings from an array (or a single string).
    public static func strings(_ value: Any?) -> [String] {
        if let array = value as? [Any] { return array.compactMap { string($0) } }
        if let single = string(value) { return [single] }
        return []
    }

    // MARK: - Private

    /// Index of the `}` closing the `{` at `open`, skipping braces inside strings.
    private static func matchingBrace(_ chars: [Unicode.Scalar], from open: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var i = open
        while i < chars.count {
            let c = chars[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "{" {
                depth += 1
            } else if c == "}" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }
}
