import CGtk

/// A GdkTexture reference carried between threads.
///
/// Unchecked because a GdkTexture is immutable once created and its reference count is atomic:
/// handing one reference to another thread is safe, and GTK documents textures as usable from any
/// thread. Whoever holds the handle owns that one reference.
struct TextureHandle: @unchecked Sendable {
    let raw: OpaquePointer?
}
