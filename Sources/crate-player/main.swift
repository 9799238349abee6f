import CrateAudio
import CrateCore
import Foundation

// The player process: GStreamer's playbin behind requests on standard input (`PlayerHost`).
// The window and `crate play` start it (`PlayerProcess`) and start it again if it dies.
//
//   crate-player [--progress-ms N]
//
// CRATE_AUDIO_SINK replaces the sound card, as for the window.

signal(SIGPIPE, SIG_IGN)
var progressIntervalMs = 250
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--progress-ms":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("crate-player: --progress-ms takes a number of milliseconds\n".utf8))
            exit(2)
        }
        progressIntervalMs = value
    default:
        FileHandle.standardError.write(Data("crate-player: unknown argument \(argument); it is started by Crate, not by hand\n".utf8))
        exit(2)
    }
}

nonisolated(unsafe) var hostKeeper: AnyObject?
// Reports get a descriptor of their own; standard output becomes standard error, so nothing a
// library prints (GLib prints its assertion failures to standard output) can break a report.
let reports = dup(STDOUT_FILENO)
dup2(STDERR_FILENO, STDOUT_FILENO)

MainActor.assumeIsolated {
    do {
        let host = try PlayerHost(sinkDescription: ProcessInfo.processInfo.environment["CRATE_AUDIO_SINK"],
                                  progressIntervalMs: progressIntervalMs, output: reports)
        host.run()
        // Kept for the life of the process.
        hostKeeper = host
    } catch {
        FileHandle.standardError.write(Data("crate-player: \(UserMessage.text(for: error))\n".utf8))
        exit(1)
    }
}
dispatchMain()
