import Foundation

/// The cheap check run on downloaded artwork until the imaging code's real decoder is plugged in
/// through `CoverArtClient`'s `validate` hook: JPEG files start with FF D8 FF, PNG files with
/// their 8-byte signature.
public enum JPEGSignature {
    public static func validate(_ data: Data) throws {
        guard !data.isEmpty else { throw CoverArtError.invalidImage("the file is empty") }
        // PNG artwork is read too (`PNGCodec`): the Cover Art Archive holds some.
        guard let format = ImageFormat.sniff(data), format == .jpeg || format == .png else {
            throw CoverArtError.invalidImage("it is not a JPEG or PNG image")
        }
    }
}
