import CGtk
import CrateCore
import Foundation

/// Turns what the window receives into files the core scans: JPEGs go through as they are; PNG,
/// WebP and other formats GTK can read, and pasted pixels, become temporary JPEGs. Runs off the
/// main thread (decoding a large PNG would otherwise freeze the window).
enum PhotoImport {
    /// Files GTK cannot read either go through as they are, so the core names the problem.
    static func scannable(_ url: URL, temporaries: TemporaryPhotos) -> URL {
        guard let head = try? FileHandle(forReadingFrom: url).read(upToCount: 3), head.count == 3,
              head != Data([0xFF, 0xD8, 0xFF]) else { return url }
        guard let texture = gdk_texture_new_from_filename(url.path, nil) else { return url }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return (try? jpeg(from: texture, temporaries: temporaries)) ?? url
    }

    /// A temporary JPEG of `texture`'s pixels.
    static func jpeg(from texture: OpaquePointer, temporaries: TemporaryPhotos) throws -> URL {
        var width: Int32 = 0, height: Int32 = 0
        guard let pixels = crate_texture_rgba(texture, &width, &height) else { throw ImageError.notAnImage }
        defer { g_free(pixels) }
        let rgba = UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)
        return try temporaries.write(try RGBAImport.jpeg(rgba: rgba, width: Int(width), height: Int(height)))
    }
}
