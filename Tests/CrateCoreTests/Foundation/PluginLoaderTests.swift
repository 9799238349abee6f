import CrateAudio
import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// The loadable parts (libCrateCoverCheck.so, libCrateGStreamer.so): found next to the test
/// executable as they are next to `crate`, their tables checked, and every way of not finding or
/// not opening one a typed error instead of a crash.
@Suite("Plugins loaded at first use", .tags(.gstreamer))
struct PluginLoaderTests {
    @Test("Both plugins are built next to the executable and load through the default search")
    func bothPluginsLoad() throws {
        let directories = PluginLoader.searchDirectories(environment: [:])
        for plugin in CratePlugin.allCases {
            let path = try PluginLoader.locate(plugin, in: directories)
            #expect(path.hasSuffix("/" + plugin.fileName))
            _ = try PluginLoader.load(plugin, from: directories)
            _ = try PluginLoader.table(plugin)
            #expect(PluginLoader.status(plugin) == nil)
        }
        #expect(CoverVerifier.unavailable == nil)
        #expect(GStreamerRuntime.unavailable == nil)
    }

    /// `CoverVerifier.standard` repeats the plugin's calibrated thresholds so that making a
    /// verifier does not load OpenCV: they must be the same numbers.
    @Test func standardThresholdsAreThePluginsDefaults() throws {
        let fromPlugin = try CoverVerifier.pluginDefaults()
        let standard = CoverVerifier.standard
        #expect(fromPlugin.minCorrelation == standard.minCorrelation)
        #expect(fromPlugin.minAgreement == standard.minAgreement)
        #expect(fromPlugin.method == standard.method)
        #expect(fromPlugin.closeCorrelation == standard.closeCorrelation)
        #expect(fromPlugin.minAgreementWhenClose == standard.minAgreementWhenClose)
        #expect(fromPlugin.maxOccluded == standard.maxOccluded)
        #expect(fromPlugin.maxContent == standard.maxContent)
        #expect(fromPlugin.minVisible == standard.minVisible)
    }

    @Test("CRATE_PLUGIN_DIR replaces the search; the default looks next to the executable, then in ../lib/crate")
    func searchDirectories() {
        #expect(PluginLoader.searchDirectories(environment: ["CRATE_PLUGIN_DIR": "/somewhere/plugins"]) == ["/somewhere/plugins"])
        let defaults = PluginLoader.searchDirectories(environment: ["CRATE_PLUGIN_DIR": ""])
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #expect(defaults == [exe.path, exe.deletingLastPathComponent().appendingPathComponent("lib/crate").path])
    }

    @Test("An empty plugin folder: not installed, with the folder named")
    func emptyFolderIsNotInstalled() throws {
        let temp = try TemporaryDirectory()
        for plugin in CratePlugin.allCases {
            #expect(throws: PluginError.notInstalled(plugin, searched: [temp.url.path])) {
                _ = try PluginLoader.load(plugin, from: [temp.url.path])
            }
        }
        let message = PluginError.notInstalled(.gstreamer, searched: [temp.url.path]).message
        #expect(message.contains("playback engine is not installed"))
        #expect(message.contains(temp.url.path))
    }

    @Test("A file that is not a shared object cannot be loaded; a shared object without the entry point is refused")
    func brokenPlugins() throws {
        let temp = try TemporaryDirectory()
        let junk = temp.url.path + "/" + CratePlugin.coverCheck.fileName
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(throws: PluginError.cannotLoad(.coverCheck, path: junk)) {
            _ = try PluginLoader.load(.coverCheck, from: [temp.url.path])
        }
        // A real shared object of the wrong kind: the GStreamer plugin under the verification's name.
        let other = try TemporaryDirectory()
        let real = try PluginLoader.locate(.gstreamer, in: PluginLoader.searchDirectories(environment: [:]))
        let impostor = other.url.path + "/" + CratePlugin.coverCheck.fileName
        try FileManager.default.copyItem(atPath: real, toPath: impostor)
        #expect(throws: PluginError.incompatible(.coverCheck, path: impostor)) {
            _ = try PluginLoader.load(.coverCheck, from: [other.url.path])
        }
    }
}
