import ArgumentParser
import CrateCore
import CrateLive
import Foundation

/// `crate`: Crate without a window, for scripts, diagnostics and tests.
public struct CrateCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "crate",
        abstract: "Identify record covers, review albums and keep your crate — from the terminal.",
        version: "crate \(CrateVersion.string)",
        subcommands: [ScanCommand.self, BatchCommand.self, ReviewCommand.self, HistoryCommand.self, DoctorCommand.self, PlayCommand.self, RepairCommand.self, DebugCommand.self]
    )

    public init() {}
}

/// Turns a core error into the CLI's message and exit code 1.
func fail(_ error: Error) -> ExitCode {
    let message = (error as? CrateError)?.message ?? (error as? ScanFailure)?.message ?? (error as? LocalizedError)?.errorDescription ?? "\(error)"
    FileHandle.standardError.write(Data("crate: \(message)\n".utf8))
    return ExitCode(1)
}

/// The composition root for a command: the library (notices printed to stderr), the process
/// environment, the Secret Service when the session has one.
func openEnvironment(paths: CratePaths = CratePaths()) throws -> AppEnvironment {
    AppEnvironment.live(database: try openDatabase(paths: paths), paths: paths)
}

/// Opens the library, printing any recovery notice to stderr.
func openDatabase(paths: CratePaths) throws -> AppDatabase {
    let database = try AppDatabase.open(paths: paths)
    if let notice = database.recoveryNotice {
        FileHandle.standardError.write(Data("crate: \(notice)\n".utf8))
    }
    if database.isReadOnly, let url = database.fileURL {
        FileHandle.standardError.write(Data("crate: \(CrateError.databaseNewerThanApp(path: url.path).message)\n".utf8))
    }
    return database
}
