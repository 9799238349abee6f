import Foundation

/// A release barcode in one form: GTIN-13 digits. UPC-A (12 digits) is the EAN-13 with a leading
/// 0, EAN-8 is padded with zeros as GS1 pads any GTIN, and UPC-E is expanded to its UPC-A; so a
/// US CD's "075678164125" and its EAN "0075678164125" are equal.
public struct Barcode: Hashable, Sendable, CustomStringConvertible {
    /// Thirteen digits, check digit last.
    public let gtin13: String

    /// Why text is not a release barcode.
    public enum Problem: Error, Equatable, Sendable {
        /// No digits, or letters among them.
        case notDigits
        /// Not 6, 7, 8, 12 or 13 digits.
        case wrongLength(Int)
        /// The GS1 check digit does not match: a misread or mistyped digit.
        case wrongCheckDigit
        /// An ISBN ("978"/"979" prefix): a book's barcode, not a record's.
        case book
    }

    public var description: String { gtin13 }

    /// Reads a printed or typed barcode: spaces and dashes are ignored, the check digit is
    /// verified. 8 digits starting with 0 are UPC-E, others EAN-8; 6 or 7 digits are a UPC-E
    /// printed without its check digit (and number system).
    public static func parse(_ text: String) -> Result<Barcode, Problem> {
        let kept = text.filter { !$0.isWhitespace && $0 != "-" }
        guard !kept.isEmpty, kept.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(.notDigits) }
        let digits = kept.compactMap(\.wholeNumberValue)
        switch digits.count {
        case 12, 13:
            return checked(digits)
        case 8:
            // A leading 0 is UPC-E's number system: GS1 keeps EAN-8s that start with 0 for
            // in-store numbers, which no record carries.
            let readings = digits[0] == 0 ? [expandUPCE(digits), digits] : [digits, expandUPCE(digits)]
            guard let valid = readings.compactMap({ $0 }).first(where: isValid) else { return .failure(.wrongCheckDigit) }
            return checked(valid)
        case 6, 7:
            // UPC-E printed without number system or check digit: expand and compute the check.
            let body = digits.count == 6 ? [0] + digits : digits
            guard let upcA = expandUPCE(body + [0]) else { return .failure(.wrongLength(digits.count)) }
            return checked(Array(upcA.dropLast()) + [checkDigit(Array(upcA.dropLast()))])
        default:
            return .failure(.wrongLength(digits.count))
        }
    }

    /// What a stored barcode is found by: the GTIN-13 of a valid barcode, else its digits (a
    /// 12-digit one with a leading 0), since MusicBrainz holds codes with a wrong check digit or
    /// an ISBN, and a scan of the same digits must still find them. Nil without digits.
    public static func lookupKey(_ text: String) -> String? {
        if let barcode = Barcode(text) { return barcode.gtin13 }
        let digits = text.filter { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        return digits.count == 12 ? "0" + digits : digits
    }

    /// The barcode of `text`, or nil when it is not one (see `parse`).
    public init?(_ text: String) {
        guard case .success(let barcode) = Self.parse(text) else { return nil }
        self = barcode
    }

    private init(gtin13: String) {
        self.gtin13 = gtin13
    }

    private static func checked(_ digits: [Int]) -> Result<Barcode, Problem> {
        guard isValid(digits) else { return .failure(.wrongCheckDigit) }
        let padded = [Int](repeating: 0, count: 13 - digits.count) + digits
        if padded.starts(with: [9, 7, 8]) || padded.starts(with: [9, 7, 9]) { return .failure(.book) }
        return .success(Barcode(gtin13: padded.map(String.init).joined()))
    }

    /// GS1's check digit of the data digits: weights 3, 1, 3, … from the right.
    static func checkDigit(_ data: [Int]) -> Int {
        let sum = data.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    static func isValid(_ digits: [Int]) -> Bool {
        guard let last = digits.last else { return false }
        return checkDigit(Array(digits.dropLast())) == last
    }

    /// UPC-E (number system 0 or 1, six digits, check) → the UPC-A it abbreviates.
    static func expandUPCE(_ digits: [Int]) -> [Int]? {
        guard digits.count == 8, digits[0] <= 1 else { return nil }
        let d = Array(digits[1...6]), system = digits[0], check = digits[7]
        let middle: [Int]
        switch d[5] {
        case 0...2: middle = [d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: middle = [d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: middle = [d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: middle = [d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
        return [system] + middle + [check]
    }
}
