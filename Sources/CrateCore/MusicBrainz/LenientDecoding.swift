import Foundation

/// Decoding helpers for JSON from services that change field types over the years
/// (`score` was a string, is an integer now). A field of the wrong type becomes nil; it never
/// drops the object around it.
extension KeyedDecodingContainer {
    func lenientString(_ key: Key) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return String(value) }
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return String(value) }
        return nil
    }

    func lenientInt(_ key: Key) -> Int? {
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Double.self, forKey: key), value.isFinite, abs(value) < 1e15 { return Int(value) }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let value = Int(trimmed) { return value }
            if let value = Double(trimmed), value.isFinite, abs(value) < 1e15 { return Int(value) }
        }
        return nil
    }

    func lenientBool(_ key: Key) -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return ["true", "1", "yes"].contains(text.lowercased()) }
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return value != 0 }
        return nil
    }

    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// An array whose unreadable elements are skipped; missing or not an array → empty.
    func lenientArray<T: Decodable>(_ type: T.Type, _ key: Key) -> [T] {
        guard let wrapped = try? decodeIfPresent([Lossy<T>].self, forKey: key) else { return [] }
        return wrapped.compactMap(\.value)
    }

    /// String array that tolerates non-string elements.
    func lenientStrings(_ key: Key) -> [String] {
        lenientArray(Lossy<String>.self, key).compactMap(\.value)
    }
}

/// One array element that may fail to decode without failing the array.
struct Lossy<T: Decodable>: Decodable {
    let value: T?

    init(from decoder: Decoder) throws {
        value = try? T(from: decoder)
    }
}

/// Coding keys from any string, so DTOs can name JSON keys like `"artist-credit"` inline.
struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
