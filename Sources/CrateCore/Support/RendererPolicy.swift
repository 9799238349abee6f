import Foundation

/// Which GSK renderer the window should ask GTK for, decided before GTK starts.
///
/// GTK 4.8 (Debian 12) always tries its GL renderer. Without a GPU, Mesa gives it llvmpipe: GL
/// emulated on the CPU, which costs more CPU per frame and more memory (an LLVM JIT and its
/// buffers) than GTK's own cairo renderer doing the same work. GTK 4.14 made the same choice
/// itself ("don't use GPU renderers with llvmpipe"). So when no GPU can be reached — no DRM
/// device node and no NVIDIA device, or `LIBGL_ALWAYS_SOFTWARE` set — the window asks for cairo.
/// A `GSK_RENDERER` the user set is never overridden. See docs/performance.md.
public enum RendererPolicy {
    /// The environment to set before GTK starts: `GSK_RENDERER=cairo` when GL could only be
    /// software and the user chose no renderer, and then `GDK_DEBUG=gl-disable` too (unless the
    /// user set `GDK_DEBUG`), because GDK 4.8 otherwise sets up GL when it opens the display even
    /// when cairo draws — loading Mesa and LLVM for nothing. Empty: GTK's own choice.
    /// `driNodes`: the names in /dev/dri; `hasNvidia`: whether /dev/nvidiactl exists.
    public static func environment(for environment: [String: String], driNodes: [String], hasNvidia: Bool) -> [(name: String, value: String)] {
        guard (environment["GSK_RENDERER"] ?? "").isEmpty else { return [] }
        let software = environment["LIBGL_ALWAYS_SOFTWARE"].map { !["", "0", "false"].contains($0.lowercased()) } ?? false
        let hasGPU = driNodes.contains { $0.hasPrefix("renderD") || $0.hasPrefix("card") } || hasNvidia
        guard software || !hasGPU else { return [] }
        var settings = [(name: "GSK_RENDERER", value: "cairo")]
        if (environment["GDK_DEBUG"] ?? "").isEmpty { settings.append((name: "GDK_DEBUG", value: "gl-disable")) }
        return settings
    }

    /// The same, for this machine and process.
    public static func environmentForThisMachine() -> [(name: String, value: String)] {
        environment(for: ProcessInfo.processInfo.environment,
                    driNodes: (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [],
                    hasNvidia: FileManager.default.fileExists(atPath: "/dev/nvidiactl"))
    }
}
