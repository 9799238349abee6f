import CCratePlugins
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The parts of Crate built as their own shared objects so that no process pays for loading their
/// libraries until it uses them (docs/decisions, "Heavy libraries loaded at first use"): the
/// executables link neither OpenCV, GStreamer, libsecret nor ZBar.
public enum CratePlugin: String, CaseIterable, Sendable, Codable {
    /// Tier-0 verification (C++ over OpenCV): `crate_cover_check_table`.
    case coverCheck = "CrateCoverCheck"
    /// The player's GStreamer calls: `crate_gstreamer_table`.
    case gstreamer = "CrateGStreamer"
    /// API keys in the Secret Service (libsecret): `crate_secret_table`.
    case secret = "CrateSecret"
    /// EAN/UPC barcodes in photos (ZBar): `crate_barcode_table`.
    case barcode = "CrateBarcode"

    /// `libCrateCoverCheck.so`, `libCrateGStreamer.so`.
    public var fileName: String { "lib\(rawValue).so" }

    var entryPoint: String {
        switch self {
        case .coverCheck: "crate_cover_check_plugin"
        case .gstreamer: "crate_gstreamer_plugin"
        case .secret: "crate_secret_plugin"
        case .barcode: "crate_barcode_plugin"
        }
    }

    /// The Debian package of the library it opens.
    var package: String {
        switch self {
        case .coverCheck: "libopencv-video406"
        case .gstreamer: "libgstreamer-plugins-base1.0-0"
        case .secret: "libsecret-1-0"
        case .barcode: "libzbar0"
        }
    }

    /// What the user loses without it, for sentences.
    var purpose: String {
        switch self {
        case .coverCheck: "Photo verification (matching a photo against your crate offline)"
        case .gstreamer: "The playback engine"
        case .secret: "The keyring connection (API keys in the Secret Service)"
        case .barcode: "Barcode reading"
        }
    }
}

/// A plugin that is not there or cannot be used. Nothing crashes: verification is then
/// unavailable (tier 0 answers nothing, as for an album without artwork) and playback says so.
public enum PluginError: Error, Equatable, Sendable, Codable {
    /// No `lib<Name>.so` in any of the folders searched.
    case notInstalled(CratePlugin, searched: [String])
    /// The file is there but the dynamic loader refused it (usually a library it needs, OpenCV or
    /// GStreamer, is not installed). The loader's own text goes to the log, not here.
    case cannotLoad(CratePlugin, path: String)
    /// The file is not this version's plugin (no entry point, another table version).
    case incompatible(CratePlugin, path: String)

    public var message: String {
        switch self {
        case .notInstalled(let plugin, let searched):
            let looked = searched.isEmpty ? "" : " (looked in \(searched.map(PathBytes.displayName).joined(separator: ", ")))"
            return "\(plugin.purpose) is not installed: \(plugin.fileName) was not found\(looked). "
                + "Reinstall Crate, or set CRATE_PLUGIN_DIR to the folder that holds it."
        case .cannotLoad(let plugin, let path):
            return "\(plugin.purpose) could not be loaded from \(PathBytes.displayName(path)): a library it needs is missing. "
                + "Install \(plugin.package) (scripts/install-deps installs everything)."
        case .incompatible(let plugin, let path):
            return "\(PathBytes.displayName(path)) is not the \(plugin.fileName) of this version of Crate. Reinstall Crate."
        }
    }
}

extension PluginError: LocalizedError {
    public var errorDescription: String? { message }
}

/// Finds and opens plugins: `$CRATE_PLUGIN_DIR` alone when it is set; otherwise the executable's
/// folder (`.build/debug`, `.build/release`, meson's build folder), then `<exe>/../lib/crate`
/// (installed). Each plugin is opened once per process, on first use, from any thread.
public enum PluginLoader {
    /// The folders searched, in order.
    public static func searchDirectories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let override = environment["CRATE_PLUGIN_DIR"], !override.isEmpty { return [override] }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return [exe.path, exe.deletingLastPathComponent().appendingPathComponent("lib/crate").path]
    }

    /// Where `plugin` is, without opening it (a `stat` per folder searched).
    @discardableResult
    public static func locate(_ plugin: CratePlugin, in directories: [String] = searchDirectories()) throws(PluginError) -> String {
        guard let path = directories.map({ ($0 as NSString).appendingPathComponent(plugin.fileName) })
            .first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw .notInstalled(plugin, searched: directories)
        }
        return path
    }

    /// Opens `plugin` from the first of `directories` that has it and returns its table
    /// (checked: entry point, version, size). Not cached; `table(_:)` is.
    public static func load(_ plugin: CratePlugin, from directories: [String]) throws(PluginError) -> UnsafeRawPointer {
        let path = try locate(plugin, in: directories)
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown"
            Log.error("could not load \(path): \(reason)")
            throw .cannotLoad(plugin, path: path)
        }
        guard let symbol = dlsym(handle, plugin.entryPoint) else {
            dlclose(handle)
            throw .incompatible(plugin, path: path)
        }
        // Both entry points have the same shape: a table that starts with version and size.
        typealias Entry = @convention(c) () -> UnsafeRawPointer?
        let entry = unsafeBitCast(symbol, to: Entry.self)
        let needed = switch plugin {
        case .coverCheck: MemoryLayout<crate_cover_check_table>.size
        case .gstreamer: MemoryLayout<crate_gstreamer_table>.size
        case .secret: MemoryLayout<crate_secret_table>.size
        case .barcode: MemoryLayout<crate_barcode_table>.size
        }
        guard let table = entry(), table.load(as: UInt32.self) == UInt32(CRATE_PLUGIN_ABI_VERSION),
              Int(table.load(fromByteOffset: 4, as: UInt32.self)) >= needed else {
            dlclose(handle)
            throw .incompatible(plugin, path: path)
        }
        // Never closed: the tables' functions live as long as the process.
        return table
    }

    private struct Table: @unchecked Sendable { let pointer: UnsafeRawPointer }
    private static let loaded = Mutex<[CratePlugin: Result<Table, PluginError>]>([:])

    /// The plugin's table, opened on the first call (from the default folders); a failure is
    /// remembered too, so it is logged once and every later use fails the same way at no cost.
    public static func table(_ plugin: CratePlugin) throws(PluginError) -> UnsafeRawPointer {
        let result = loaded.withLock { cache -> Result<Table, PluginError> in
            if let known = cache[plugin] { return known }
            let result: Result<Table, PluginError>
            do throws(PluginError) {
                result = .success(Table(pointer: try load(plugin, from: searchDirectories())))
            } catch {
                result = .failure(error)
            }
            if case .failure(let error) = result { Log.notice(error.message) }
            cache[plugin] = result
            return result
        }
        return try result.map { (table: Table) in table.pointer }.get()
    }

    /// Whether the plugin opens (loading it if it was not yet).
    public static func status(_ plugin: CratePlugin) -> PluginError? {
        do throws(PluginError) { _ = try table(plugin) } catch { return error }
        return nil
    }
}
