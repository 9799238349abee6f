import CGtk
import CrateCore
import Foundation

// The bridge must exist before anything awaits the main actor.
// CRATE_NO_MAIN_BRIDGE=1 exists only to show that --self-test fails without the bridge.
let status = MainActor.assumeIsolated {
    StartupTiming.mark("main entered")
    if ProcessInfo.processInfo.environment["CRATE_NO_MAIN_BRIDGE"] == nil { MainLoopBridge.install() }
    return CrateApplication(options: LaunchOptions.parse(CommandLine.arguments)).run()
}
exit(status)
