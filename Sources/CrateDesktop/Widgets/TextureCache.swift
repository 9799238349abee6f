import CGtk
import CrateCore
import Foundation

/// Loads artwork files into GdkTextures off the main thread and keeps the most recent ones.
///
/// Decoding happens on a background queue (GdkTexture is immutable and may be created on any
/// thread); completions run on the main actor. The cache is bounded (LRU) so scrolling through
/// 100 000 albums does not grow memory.
@MainActor
final class TextureCache {
    /// Where stored artwork paths are resolved: the same environment-derived `CratePaths` the
    /// application opens the library with.
    static let artworkDirectory = CratePaths().artworkDirectory
    static let thumbnails = TextureCache(capacity: 400)
    static let artwork = TextureCache(capacity: 30)


    private let capacity: Int
    private var textures: [String: OpaquePointer] = [:]
    private var recency: [String] = []
    private var waiting: [String: [(OpaquePointer?) -> Void]] = [:]
    private let queue = DispatchQueue(label: "crate.textures", qos: .userInitiated)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Calls `completion` with the texture for `path` (nil if it cannot be read). The texture is
    /// owned by the cache: callers that keep it must take their own reference (GtkPicture does).
    func texture(for path: String, completion: @escaping (OpaquePointer?) -> Void) {
        if let texture = textures[path] {
            touch(path)
            completion(texture)
            return
        }
        if waiting[path] != nil {
            waiting[path]?.append(completion)
            return
        }
        waiting[path] = [completion]
        StartupTiming.mark("first texture asked")
        queue.async { [weak self] in
            let loaded = TextureHandle(raw: gdk_texture_new_from_filename(path, nil))
            StartupTiming.markOffMain("first texture decoded")
            Task { @MainActor in self?.finish(path, loaded.raw) }
        }
    }

    private func finish(_ path: String, _ texture: OpaquePointer?) {
        if let texture {
            textures[path] = texture
            touch(path)
            evictIfNeeded()
        }
        let completions = waiting.removeValue(forKey: path) ?? []
        for completion in completions { completion(textures[path]) }
    }

    private func touch(_ path: String) {
        recency.removeAll { $0 == path }
        recency.append(path)
    }

    private func evictIfNeeded() {
        while recency.count > capacity {
            let oldest = recency.removeFirst()
            if let texture = textures.removeValue(forKey: oldest) {
                g_object_unref(UnsafeMutableRawPointer(texture))
            }
        }
    }
}
