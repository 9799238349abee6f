import Foundation

/// The cheap check run on downloaded artwork until the imaging code's real decoder is plugged in
/// through `CoverArtClient`'s `validate` hook: JPEG files start with FF D8 FF.
public enum JPEGSignature {
    public static func validate(_ data: Data) throws {
        guard !data.isEmpty else { throw CoverArtError.invalidImage("the file is empty") }
        guard data.count >= 3, data.prefix(3).elementsEqual([0xFF, 0xD8, 0xFF]) else {
            throw CoverArtError.invalidImage("it is not a JPEG image")
        }
    }
}
