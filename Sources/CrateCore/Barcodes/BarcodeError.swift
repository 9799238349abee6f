import Foundation

/// Why a barcode was refused or could not be read. Messages are decided here, in one place.
public enum BarcodeError: Error, Equatable, Sendable {
    /// The digits do not end with their GS1 check digit (a mistyped or misread barcode).
    case wrongCheckDigit(String, expected: Character)
    /// An EAN-13 that starts 978 or 979: a book's (or printed music's) barcode.
    case isbn(String)
    /// Not 8, 12 or 13 digits (or a UPC-E that does not start with 0 or 1).
    case wrongLength(String)
    /// Something other than digits.
    case notDigits(String)
    /// libCrateBarcode.so (or ZBar, libzbar0) is not there: barcodes cannot be read from photos,
    /// though typed ones still work.
    case unavailable(PluginError)
    /// ZBar refused the picture (out of memory); nothing was read.
    case scanFailed(width: Int, height: Int)

    /// The text shown to the user (and printed by the CLI).
    public var message: String {
        switch self {
        case .wrongCheckDigit(let digits, let expected):
            return L10n.tr("%@ is not a valid barcode: its last digit should be %@. Check the digits and try again.", digits, String(expected))
        case .isbn(let digits):
            return L10n.tr("%@ is a book's barcode (ISBN), not a record's.", digits)
        case .wrongLength(let digits):
            return L10n.tr("%@ is not a record barcode: EAN and UPC barcodes have 8, 12 or 13 digits.", digits)
        case .notDigits(let text):
            return text.isEmpty ? L10n.tr("A barcode is made of digits; nothing was entered.")
                : L10n.tr("A barcode is made of digits only, and “%@” is not.", text)
        case .unavailable(let problem):
            switch problem {
            case .cannotLoad:
                return L10n.tr("Barcode reading needs ZBar: install libzbar0 (scripts/install-deps installs everything). Typed barcodes still work.")
            case .notInstalled, .incompatible:
                return L10n.tr("Barcode reading is not available: %@ Typed barcodes still work.", problem.message)
            }
        case .scanFailed(let width, let height):
            return L10n.tr("Crate could not look for barcodes in this %@×%@ photo (not enough memory).", width, height)
        }
    }

    /// A short stable code for logs and JSON.
    public var code: String {
        switch self {
        case .wrongCheckDigit: "wrong_check_digit"
        case .isbn: "isbn"
        case .wrongLength: "wrong_length"
        case .notDigits: "not_digits"
        case .unavailable: "barcode_reading_unavailable"
        case .scanFailed: "barcode_scan_failed"
        }
    }
}

extension BarcodeError: CustomStringConvertible {
    public var description: String { message }
}

extension BarcodeError: LocalizedError {
    public var errorDescription: String? { message }
}
