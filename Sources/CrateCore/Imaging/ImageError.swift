import Foundation

/// Why an image could not be prepared. Messages are decided here, in one place.
public enum ImageError: Error, Equatable, Sendable {
    case emptyFile
    case notAnImage
    case unsupportedFormat(String)
    case damaged(detail: String)
    case tooLarge(width: Int, height: Int)
    case tooManyScans
    /// The file itself could not be read: missing, a folder, too large, …
    case file(FileProblem)
    case encodingFailed(String)

    /// The text shown to the user (and printed by the CLI).
    public var message: String {
        switch self {
        case .emptyFile:
            return L10n.tr("The file is empty.")
        case .notAnImage:
            return L10n.tr("This file is not an image.")
        case .unsupportedFormat(let format):
            return L10n.tr("Unsupported image format (%@). Use a JPEG photo.", format)
        case .damaged:
            return L10n.tr("The image is damaged (truncated or corrupt) and cannot be read.")
        case .tooLarge(let width, let height):
            return L10n.tr("Image too large (%@×%@); the limit is about 89 megapixels.", width, height)
        case .tooManyScans:
            return L10n.tr("The image is damaged: it has too many progressive scans.")
        case .file(let problem):
            return problem.message
        case .encodingFailed(let detail):
            return L10n.tr("Crate could not encode the image (%@).", detail)
        }
    }

    /// A short stable code for logs and `crate scan --json`.
    public var code: String {
        switch self {
        case .emptyFile: return "empty_file"
        case .notAnImage: return "not_an_image"
        case .unsupportedFormat: return "unsupported_format"
        case .damaged, .tooManyScans: return "damaged_image"
        case .tooLarge: return "image_too_large"
        case .file(let problem): return problem.code
        case .encodingFailed: return "encoding_failed"
        }
    }
}

extension ImageError: CustomStringConvertible {
    public var description: String { message }
}

/// So `localizedDescription` (logs, the window) says the same, never "CrateCore.ImageError error 6".
extension ImageError: LocalizedError {
    public var errorDescription: String? { message }
}
