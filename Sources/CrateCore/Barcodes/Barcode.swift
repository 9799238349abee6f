import Foundation

/// The retail barcodes printed on record sleeves.
public enum BarcodeSymbology: String, Sendable, Codable, CaseIterable {
    case ean13 = "EAN-13"
    case ean8 = "EAN-8"
    case upcA = "UPC-A"
    case upcE = "UPC-E"

    /// How many digits it has, check digit included.
    public var length: Int {
        switch self {
        case .ean13: 13
        case .upcA: 12
        case .ean8, .upcE: 8
        }
    }
}

/// A valid record barcode: the one place Crate's barcode rules live (GS1 check digit, UPC-E
/// expansion, UPC-A ⇄ EAN-13 with a leading 0, books refused). Whether it came from a photo, a
/// USB scanner or a release lookup, build it here and compare `gtin13`s.
public struct Barcode: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The digits as printed under the bars, check digit included.
    public let digits: String
    public let symbology: BarcodeSymbology

    /// A barcode of a known symbology: the length, the digits and the check digit must be right,
    /// and an EAN-13 must not be a book's (ISBN, "978"/"979").
    public init(digits: String, symbology: BarcodeSymbology) throws(BarcodeError) {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { throw .notDigits(digits) }
        guard digits.count == symbology.length else { throw .wrongLength(digits) }
        if symbology == .upcE {
            guard let first = digits.first, first == "0" || first == "1" else { throw .wrongLength(digits) }
        }
        let body = symbology == .upcE ? Self.expandUPCE(digits) : digits
        let expected = Self.checkDigit(of: String(body.dropLast()))
        guard body.last == expected else { throw .wrongCheckDigit(digits, expected: expected) }
        if symbology == .ean13, Self.isBookland(digits) { throw .isbn(digits) }
        self.digits = digits
        self.symbology = symbology
    }

    /// A barcode as typed (or as a USB scanner types it, or as MusicBrainz stores it): spaces and
    /// hyphens are ignored; 13 digits are an EAN-13, 12 a UPC-A; 8 digits a UPC-E when they start
    /// with 0 (GS1 keeps 0-led EAN-8s for in-store numbers, which no record carries), else an
    /// EAN-8 (each tried as the other when its check digit fails); 6 or 7 digits a UPC-E printed
    /// without its number system or check digit.
    public init(typed text: String) throws(BarcodeError) {
        let digits = String(text.filter { !$0.isWhitespace && $0 != "-" })
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .notDigits(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        switch digits.count {
        case 13: try self.init(digits: digits, symbology: .ean13)
        case 12: try self.init(digits: digits, symbology: .upcA)
        case 8:
            let order: [BarcodeSymbology] = digits.hasPrefix("0") ? [.upcE, .ean8] : [.ean8, .upcE]
            do throws(BarcodeError) {
                try self.init(digits: digits, symbology: order[0])
            } catch {
                guard let other = try? Barcode(digits: digits, symbology: order[1]) else { throw error }
                self = other
            }
        case 6, 7:
            let body = digits.count == 6 ? "0" + digits : digits
            guard body.hasPrefix("0") || body.hasPrefix("1") else { throw .wrongLength(digits) }
            let check = Self.checkDigit(of: String(Self.expandUPCE(body + "0").dropLast()))
            try self.init(digits: body + String(check), symbology: .upcE)
        default: throw .wrongLength(digits)
        }
    }

    /// The barcode of typed or stored text, or nil when it is not a valid record barcode.
    public init?(_ text: String) {
        guard let barcode = try? Barcode(typed: text) else { return nil }
        self = barcode
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

    /// The GTIN-13 form, the one to compare and store: a UPC-A with a leading 0, a UPC-E expanded
    /// first, an EAN-8 padded with five 0s (GS1's own padding). Two barcodes with the same
    /// `gtin13` are the same item.
    public var gtin13: String {
        switch symbology {
        case .ean13: digits
        case .upcA: "0" + digits
        case .upcE: "0" + Self.expandUPCE(digits)
        case .ean8: "00000" + digits
        }
    }

    /// The 12-digit UPC-A form, when there is one (a UPC-A, a UPC-E expanded, an EAN-13 that
    /// starts with 0).
    public var upcA: String? {
        switch symbology {
        case .upcA: digits
        case .upcE: Self.expandUPCE(digits)
        case .ean13: digits.hasPrefix("0") ? String(digits.dropFirst()) : nil
        case .ean8: nil
        }
    }

    /// The forms a release database may have stored it under (MusicBrainz keeps what is printed:
    /// 12 digits on American sleeves, 13 on European ones), the printed one first.
    public var searchForms: [String] {
        var forms = [digits]
        for form in [upcA, symbology == .ean8 ? nil : gtin13].compactMap({ $0 }) where !forms.contains(form) {
            forms.append(form)
        }
        return forms
    }

    /// The same item under another symbology (a UPC-A and the EAN-13 "0" + it, a UPC-E and its
    /// expansion).
    public func isSameItem(as other: Barcode) -> Bool { gtin13 == other.gtin13 }

    public var description: String { "\(symbology.rawValue) \(digits)" }

    private enum CodingKeys: String, CodingKey { case digits, symbology }

    /// Decoded through the same rules: stored JSON cannot make an invalid barcode.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(digits: container.decode(String.self, forKey: .digits),
                      symbology: container.decode(BarcodeSymbology.self, forKey: .symbology))
    }

    // MARK: - The rules

    /// The GS1 check digit of `body` (the digits before it): from the right, weights 3, 1, 3, …;
    /// the digit that brings the sum to a multiple of 10. `body` must be digits.
    public static func checkDigit(of body: String) -> Character {
        var sum = 0
        for (index, byte) in body.utf8.reversed().enumerated() {
            sum += Int(byte - 0x30) * (index % 2 == 0 ? 3 : 1)
        }
        return Character(String((10 - sum % 10) % 10))
    }

    /// A UPC-E (8 digits: number system 0/1, six digits, check digit) as its UPC-A (12 digits, the
    /// same check digit). The sixth digit says where the zeros were taken out.
    public static func expandUPCE(_ upcE: String) -> String {
        let d = Array(upcE)
        guard d.count == 8 else { return upcE }
        let system = d[0], check = d[7]
        let m = d[1...6].map { String($0) }
        let middle: String = switch d[6] {
        case "0", "1", "2": m[0] + m[1] + m[5] + "0000" + m[2] + m[3] + m[4]
        case "3": m[0] + m[1] + m[2] + "00000" + m[3] + m[4]
        case "4": m[0] + m[1] + m[2] + m[3] + "00000" + m[4]
        default: m[0] + m[1] + m[2] + m[3] + m[4] + "0000" + m[5]
        }
        return String(system) + middle + String(check)
    }

    /// Bookland: EAN-13s that start 978 or 979 are ISBNs (and 979-0, ISMNs of printed music).
    static func isBookland(_ digits: String) -> Bool { digits.hasPrefix("978") || digits.hasPrefix("979") }
}
