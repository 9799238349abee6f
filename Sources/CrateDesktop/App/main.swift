import CGtk
import CrateCore
import Foundation

// The bridge must exist before anything awaits the main actor.
// CRATE_NO_MAIN_BRIDGE=1 exists only to show that --self-test fails without the bridge.
let status = MainActor.assumeIsolated {
    StartupTiming.mark("main entered")
    // Before GTK starts: without a GPU, cairo draws the window for less CPU and memory than GL.
    for setting in RendererPolicy.environmentForThisMachine() { setenv(setting.name, setting.value, 0) }
    if ProcessInfo.processInfo.environment["CRATE_NO_MAIN_BRIDGE"] == nil { MainLoopBridge.install() }
    return CrateApplication(options: LaunchOptions.parse(CommandLine.arguments)).run()
}
exit(status)
